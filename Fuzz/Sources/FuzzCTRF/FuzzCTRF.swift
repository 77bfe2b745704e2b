import FuzzSupport
import LedgerImport

@_cdecl("fuzzCTRF") public func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzz(CTRFImporter(), bytes, count)
    return 0
}

@_cdecl("FuzzCTRF_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { fuzzOne($0, $1) }
}
