import FuzzSupport
import LedgerImport

@_cdecl("fuzzJUnit") public func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzz(JUnitImporter(), bytes, count)
    return 0
}

@_cdecl("FuzzJUnit_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { fuzzOne($0, $1) }
}
