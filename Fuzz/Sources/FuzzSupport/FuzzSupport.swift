import Foundation
import LedgerCore
import LedgerImport

/// Counts what an importer emits, storing nothing.
public struct CountingSink: EventSink {
    public var count = 0

    public init() {}

    public mutating func consume(_ record: LedgerRecord) throws { count += 1 }
}

/// Feeds one fuzzer input to an importer; malformed input is an error, which is fine, and a
/// crash, a hang or a memory error is what the fuzzer looks for.
public func fuzz(_ importer: some ResultImporter, _ bytes: UnsafePointer<UInt8>?, _ count: Int) {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    let context = ImportContext(
        runID: "7A9F0C2B-0000-4000-8000-00000000BEEF", sourceName: "fuzz", metadata: RunMetadata(project: "Fuzz"),
        fallbackStart: 1_700_000_000)
    var sink = CountingSink()
    _ = try? importer.importResults(from: .data(data), context: context, into: &sink)
}

/// libFuzzer's driver, from its `fuzzer_no_main` runtime: SwiftPM gives every executable its own
/// `main`, so each target's calls this with its test function.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with the command line, on `test`.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, test)
}
