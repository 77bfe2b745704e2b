import Foundation
import LedgerCore
import LedgerRecording
import LedgerStore

extension TestLedgerCommand.Verify {
    /// `--release`: each test found fixed leaves the quarantine (the server's when one is set),
    /// the audit log keeping the verification as its reason and evidence.
    func releaseFixed(_ reports: [VerificationReport], run: String, metadata: RunMetadata) throws {
        let fixed = reports.filter { $0.verdict == .fixed }
        guard release, !fixed.isEmpty else { return }
        let quarantine = try QuarantineList.inForce(
            project: metadata.project, ledgerFile: store.filePath, local: store.open)
        let database = try store.open()
        for report in fixed {
            let entries = quarantine.filter { $0.test == report.test }
            guard !entries.isEmpty else {
                note("\(report.test): not in quarantine; nothing to release")
                continue
            }
            let reason = report.releaseReason(revision: metadata.revision)
            for entry in entries {
                _ = try database.release(
                    [report.test], project: metadata.project, configuration: entry.configuration, reason: reason,
                    by: TestLedgerCommand.Quarantine.actor, at: Date().timeIntervalSince1970, automatic: false,
                    evidence: [report.test: Self.evidence(report, run: run, revision: metadata.revision)])
            }
            note("\(report.test): released from quarantine: \(reason)")
        }
    }

    /// A line after the reports: on standard output beside a table, on standard error beside JSON.
    func note(_ line: String) {
        if output.format == .json {
            FileHandle.standardError.write(Data("testledger: \(line)\n".utf8))
        } else {
            Swift.print(line)
        }
    }

    /// The verification as the audit log's evidence: its run, runs, rate and confidence.
    static func evidence(_ report: VerificationReport, run: String, revision: String?) -> String {
        var fields: [String: Any] = [
            "verificationRun": run, "runs": report.runs, "passed": report.passed, "failureRate": report.failureRate,
            "rateFrom": report.rateFrom.rawValue, "confidence": report.confidence,
        ]
        if let revision { fields["revision"] = revision }
        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
