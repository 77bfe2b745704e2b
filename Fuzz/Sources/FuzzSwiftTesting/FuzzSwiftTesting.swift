import FuzzSupport
import LedgerImport

@_cdecl("fuzzSwiftTesting") public func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzz(SwiftTestingImporter(), bytes, count)
    return 0
}

@_cdecl("FuzzSwiftTesting_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { fuzzOne($0, $1) }
}
