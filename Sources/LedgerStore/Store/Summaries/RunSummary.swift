import Foundation
import LedgerCore

/// One run's results as the reports read them: per test, in test row order, what its attempts
/// came to and the seconds they took, packed into two blobs of the `run_summary` row.
///
/// Every ingest rewrites the summary of each run it touched: from what it wrote, when the run had no
/// results before (``WrittenAttempts``), otherwise from the run's stored results. Either way a
/// summary is what reading the results would give, whatever order runs arrive in and however
/// often one is sent.
package struct RunSummary: Equatable {
    /// What a test's attempts in one run came to, in one byte.
    package struct Code: Equatable {
        package var rawValue: UInt8

        package init(rawValue: UInt8) { self.rawValue = rawValue }

        init(final: Outcome, anyPassed: Bool, anyFailed: Bool) {
            rawValue = UInt8(Self.outcomes.firstIndex(of: final) ?? 0) | (anyPassed ? 8 : 0) | (anyFailed ? 16 : 0)
        }

        package var final: Outcome { Self.outcomes[Int(rawValue & 7)] }
        package var anyPassed: Bool { rawValue & 8 != 0 }
        package var anyFailed: Bool { rawValue & 16 != 0 }

        static let outcomes = Outcome.allCases
        static let names = outcomes.map { Array($0.rawValue.utf8) }

        /// The outcome a stored name stands for, read without making a string; an attempt with
        /// none (`nil`) counts as crashed.
        static func outcome(named name: UnsafeBufferPointer<UInt8>?) -> Outcome {
            guard let name else { return .crashed }
            for (index, candidate) in names.enumerated() where candidate.elementsEqual(name) {
                return outcomes[index]
            }
            return .crashed
        }
    }

    static let entrySize = 9

    /// Test rows (8 bytes, little-endian) each followed by its ``Code``, by test row.
    package var outcomes: [UInt8] = []
    /// Seconds of all attempts (a little-endian `Double`), in the order of ``outcomes``.
    package var seconds: [UInt8] = []
    /// Tests whose final attempt failed.
    package var failed = 0
    /// Whether two of the run's attempts ran at once; `nil` for a summary stored before this was
    /// kept, which the reports take as maybe.
    package var concurrent: Bool? = false
    /// The highest load average the run's attempts sampled; `nil` when none did.
    package var load: Double?

    /// Tests with results in the run.
    package var tests: Int { outcomes.count / Self.entrySize }

    package init(
        outcomes: [UInt8] = [], seconds: [UInt8] = [], failed: Int = 0, concurrent: Bool? = false, load: Double? = nil
    ) {
        (self.outcomes, self.seconds, self.failed, self.concurrent) = (outcomes, seconds, failed, concurrent)
        self.load = load
    }

    mutating func append(testID: Int64, code: Code, seconds: Double) {
        withUnsafeBytes(of: testID.littleEndian) { outcomes.append(contentsOf: $0) }
        outcomes.append(code.rawValue)
        withUnsafeBytes(of: seconds.bitPattern.littleEndian) { self.seconds.append(contentsOf: $0) }
        if code.final.isFailure { failed += 1 }
    }

    /// Builds a summary from a run's attempts, taken in order of test row and attempt.
    package struct Builder {
        private var summary = RunSummary()
        private var testID: Int64?
        private var final = Outcome.skipped
        private var anyPassed = false
        private var anyFailed = false
        private var seconds = 0.0
        private var spans = ConcurrentSpans()

        package init() {}

        /// Takes the next attempt; an attempt with no outcome counts as crashed.
        /// - Parameters:
        ///   - test: its test's row.
        ///   - outcome: its outcome.
        ///   - attemptSeconds: its stored duration, `0` when it has none.
        ///   - startedAt: when it started.
        ///   - duration: its stored duration; `nil` for an attempt that never ended.
        ///   - load: the load average it sampled.
        package mutating func add(
            testID test: Int64, outcome: Outcome, seconds attemptSeconds: Double, startedAt: Double, duration: Double?,
            load: Double?
        ) {
            spans.add(startedAt: startedAt, duration: duration)
            if let load { summary.load = max(summary.load ?? load, load) }
            if test != testID {
                flush()
                (testID, anyPassed, anyFailed, seconds) = (test, false, false, 0)
            }
            final = outcome
            anyPassed = anyPassed || outcome.isPass
            anyFailed = anyFailed || outcome.isFailure
            seconds += attemptSeconds
        }

        /// The summary of every attempt taken.
        package mutating func finish() -> RunSummary {
            flush()
            testID = nil
            summary.concurrent = spans.anyOverlap
            return summary
        }

        private mutating func flush() {
            guard let testID else { return }
            summary.append(
                testID: testID, code: Code(final: final, anyPassed: anyPassed, anyFailed: anyFailed), seconds: seconds)
        }
    }
}

/// The packed entries of a summary's `outcomes` blob, read in place.
package struct SummaryEntries {
    let bytes: UnsafeRawBufferPointer

    package init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    package var count: Int { bytes.count / RunSummary.entrySize }

    package func testID(_ index: Int) -> Int64 {
        Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: index * RunSummary.entrySize, as: Int64.self))
    }

    package func code(_ index: Int) -> RunSummary.Code {
        RunSummary.Code(rawValue: bytes[index * RunSummary.entrySize + 8])
    }

    /// Seconds of entry `index` in a `seconds` blob.
    static func seconds(_ index: Int, in bytes: UnsafeRawBufferPointer) -> Double {
        Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)))
    }
}
