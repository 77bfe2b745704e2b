/// Turns Swift Testing's test ids into TestLedger's stable ids.
///
/// A function's id is `<Module>.<Suite path>/<name>/<File.swift>:<line>:<column>`, or
/// `<Module>.<name>/<File.swift>:<line>:<column>` for a function outside any type; nested suites
/// are separated by `/` (`Module.Outer/Inner/test()/File.swift:9:5`). TestLedger's id drops the
/// source location, which moves when the file is edited, and separates the name with `/`:
/// `Module.Outer/Inner/test()`, `Module/test()`.
enum SwiftTestingTestID {
    /// A test function's place in TestLedger.
    struct Parts: Equatable {
        /// The stable id: `<suite>/<name>`.
        var test: String
        /// The module and suite path (`Module.Outer/Inner`), or the module alone.
        var suite: String?
        var name: String
    }

    /// Splits a function's id; `name` is the function's name from its test record, when known.
    static func parts(of id: String, name: String?) -> Parts {
        let base = withoutSourceLocation(id)
        if let name, !name.isEmpty, base.count > name.count {
            let prefix = base.dropLast(name.count)
            if base.hasSuffix(name), let separator = prefix.last {
                let container = String(prefix.dropLast())
                // A `.` only separates the module from a function outside any type.
                if separator == "/" || (separator == "." && !container.contains("/")) {
                    return Parts(test: "\(container)/\(name)", suite: container, name: name)
                }
            }
        }
        if let slash = base.lastIndex(of: "/") {
            let suite = String(base[..<slash])
            let name = String(base[base.index(after: slash)...])
            return Parts(test: "\(suite)/\(name)", suite: suite, name: name)
        }
        if let dot = base.firstIndex(of: ".") {
            let module = String(base[..<dot])
            let name = String(base[base.index(after: dot)...])
            return Parts(test: "\(module)/\(name)", suite: module, name: name)
        }
        return Parts(test: String(base), suite: nil, name: name ?? String(base))
    }

    /// Whether the id ends with a source location, as a function's id does and a suite's doesn't.
    static func hasSourceLocation(_ id: String) -> Bool {
        withoutSourceLocation(id).endIndex != id.endIndex
    }

    /// The id without its last component when that is `<file>:<line>:<column>`.
    private static func withoutSourceLocation(_ id: String) -> Substring {
        guard let slash = id.lastIndex(of: "/") else { return Substring(id) }
        let last = id[id.index(after: slash)...]
        let fields = last.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count >= 3, last.first != "`", !last.contains("("),
            fields.suffix(2).allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) })
        else { return Substring(id) }
        return id[..<slash]
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
