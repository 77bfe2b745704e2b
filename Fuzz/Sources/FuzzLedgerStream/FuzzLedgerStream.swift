import FuzzSupport
import LedgerImport

@_cdecl("fuzzLedgerStream") public func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzz(LedgerStreamImporter(), bytes, count)
    return 0
}

@_cdecl("FuzzLedgerStream_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { fuzzOne($0, $1) }
}
