import Foundation
import LedgerCore

/// The formats `testledger ingest` reads.
public enum InputFormat: String, CaseIterable, Sendable {
    /// The Ledger event stream (NDJSON, v1).
    case ledger
    /// JUnit / xUnit XML, in any of its dialects.
    case junit
    /// Swift Testing's JSON event stream.
    case swiftTesting = "swift-testing"
    /// TAP 12, 13 or 14, from any producer.
    case tap
    /// RSpec's JSON formatter output.
    case rspec
    /// `xcrun xcresulttool get test-results tests` JSON (Xcode 16 and later).
    case xcresult
    /// Bacon's and RubyMotion's text outputs (spec_dox, test_unit, knock).
    case bacon
    /// The Common Test Report Format's JSON, which many reporters write.
    case ctrf

    /// What the format is, for help texts: "JUnit XML (swift test, pytest, …)".
    public var summary: String {
        switch self {
        case .ledger: "the Ledger event stream"
        case .junit: "JUnit XML (swift test, pytest, Surefire, xcbeautify, trainer)"
        case .swiftTesting: "Swift Testing's JSON event stream"
        case .tap: "TAP"
        case .rspec: "RSpec JSON"
        case .xcresult: "xcresulttool's JSON"
        case .bacon: "Bacon's and RubyMotion's outputs"
        case .ctrf: "CTRF JSON"
        }
    }

    /// Every format's summary, in one sentence's list.
    public static var summaries: String {
        allCases.map(\.summary).joined(separator: ", ")
    }

    /// The importer for this format.
    public var importer: any ResultImporter {
        switch self {
        case .ledger: LedgerStreamImporter()
        case .junit: PipelinedImporter(JUnitImporter())
        case .swiftTesting: PipelinedImporter(SwiftTestingImporter())
        case .tap: TAPImporter()
        case .rspec: RSpecImporter()
        case .xcresult: XCResultImporter()
        case .bacon: BaconImporter()
        case .ctrf: CTRFImporter()
        }
    }

    /// Recognises a format from the first bytes of an input; `nil` when none matches.
    ///
    /// A byte order mark and leading whitespace are skipped. Input opening with `<` can only be JUnit;
    /// with `{`, the Ledger event stream, Swift Testing, xcresulttool, RSpec or CTRF, tried in that order;
    /// anything else Bacon, then TAP.
    /// - Parameter prefix: the input's first bytes; ``PreparedImport`` passes the first 64 KiB.
    /// - Returns: the format; `nil` when the input is empty or no format claims it.
    public static func detect(prefix: Data) -> InputFormat? {
        var bytes = prefix
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            return nil
        }
        if first == UInt8(ascii: "<") {
            return JUnitImporter.looksLikeJUnit(prefix: bytes) ? .junit : nil
        }
        guard first == UInt8(ascii: "{") else {
            // Bacon's knock output ("ok - desc", unnumbered) would pass for TAP: ask Bacon first.
            if BaconOutputParser.looksLikeBacon(prefix: bytes) { return .bacon }
            return TAPImporter.looksLikeTAP(prefix: bytes) ? .tap : nil
        }
        let firstLine = bytes.split(separator: 0x0A, maxSplits: 1).first.map { Data($0) } ?? Data()
        if LedgerStreamImporter.looksLikeLedgerStream(firstLine: firstLine) { return .ledger }
        if SwiftTestingImporter.looksLikeSwiftTesting(firstLine: firstLine) { return .swiftTesting }
        if XCResultImporter.looksLikeXCResult(prefix: bytes) { return .xcresult }
        if RSpecImporter.looksLikeRSpec(prefix: bytes) { return .rspec }
        if CTRFImporter.looksLikeCTRF(prefix: bytes) { return .ctrf }
        return nil
    }
}
