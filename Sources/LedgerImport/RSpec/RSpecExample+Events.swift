import Foundation
import LedgerCore

/// How an RSpec example becomes a test: its id, outcome, issue and message.
extension RSpecExample {
    /// The spec file without its leading `./`: from `file_path`, else from the scoped id.
    var specFile: String {
        let path = filePath ?? id.map { String($0.prefix { $0 != "[" }) } ?? ""
        let file = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        return file.isEmpty ? "rspec" : file
    }

    /// The example's own description: `description`, else the full description, else its place.
    func name(index: Int) -> String {
        if let description, !description.isEmpty { return description }
        if let fullDescription, !fullDescription.isEmpty { return fullDescription }
        return "example \(index + 1)"
    }

    /// The example groups' path: the full description without the example's description.
    var groupPath: String {
        guard let full = fullDescription else { return "" }
        guard let description, !description.isEmpty, full.hasSuffix(description) else { return "" }
        return full.dropLast(description.count).trimmingCharacters(in: .whitespaces)
    }

    /// `passed`, `failed`, and `pending` (`skip`, `xit`, `pending`) as skipped; an unknown
    /// status is an error.
    var outcome: Outcome {
        switch status {
        case "passed": .passed
        case "failed": .failed
        case "pending": .skipped
        default: .error
        }
    }

    /// The issue of a failed example: `Class: message` of its exception, placed at the first
    /// backtrace frame in the example's own spec file, else the first frame. RSpec's
    /// expectation and mock errors are assertions; anything else raised is an error.
    func issue(at start: Double, test: String) -> LedgerEvent.Issue? {
        switch outcome {
        case .failed, .error: break
        default: return nil
        }
        guard let exception else {
            let message = outcome == .error ? "unknown RSpec status '\(status ?? "none")'" : "failed"
            return LedgerEvent.Issue(at: start, test: test, message: message, kind: .error)
        }
        let parts = [exception.className, exception.message].compactMap { $0?.isEmpty == false ? $0 : nil }
        let frames = (exception.backtrace ?? []).compactMap(Self.frame)
        let frame = frames.first { $0.file == specFile } ?? frames.first
        let isAssertion = exception.className.map {
            $0.hasPrefix("RSpec::Expectations") || $0.hasPrefix("RSpec::Mocks")
        }
        return LedgerEvent.Issue(
            at: start, test: test, message: parts.isEmpty ? "failed" : parts.joined(separator: ": "),
            file: frame?.file, line: frame?.line, kind: isAssertion == true ? .assertion : .error)
    }

    /// `test.end`'s message: the pending message of a skipped example, the backtrace of a
    /// failed one (its first 4 KB).
    var endMessage: String? {
        switch outcome {
        case .skipped:
            return pendingMessage
        case .failed, .error:
            guard let backtrace = exception?.backtrace, !backtrace.isEmpty else { return nil }
            return backtrace.joined(separator: "\n").clipped
        default:
            return nil
        }
    }

    /// A Ruby backtrace frame, `./spec/a_spec.rb:12:in 'block (2 levels)'`: its file (without
    /// `./`) and line.
    static func frame(_ text: String) -> (file: String, line: Int)? {
        let fields = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count >= 2, let line = Int(fields[1]), !fields[0].isEmpty else { return nil }
        let file = fields[0].hasPrefix("./") ? String(fields[0].dropFirst(2)) : String(fields[0])
        return (file, line)
    }
}
