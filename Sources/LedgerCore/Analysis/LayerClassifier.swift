/// A rule from `.testledger.yml`: tests whose id or file matches `pattern` are in `layer`.
public struct LayerRule: Codable, Hashable, Sendable {
    /// A ``Glob`` pattern, matched against the whole test id and the whole file path.
    public var pattern: String
    /// The layer of the tests it matches.
    public var layer: Layer

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - pattern: a ``Glob`` pattern for the test id or file.
    ///   - layer: the layer of the tests it matches.
    public init(pattern: String, layer: Layer) {
        self.pattern = pattern
        self.layer = layer
    }
}

/// Decides a test's layer; first match wins: explicit, rules, naming, else unit.
public struct LayerClassifier: Sendable {
    /// The rules from `.testledger.yml`, tried in order.
    public var rules: [LayerRule]

    /// Creates a classifier.
    ///
    /// - Parameter rules: the rules to try, in order, before the naming conventions.
    public init(rules: [LayerRule] = []) {
        self.rules = rules
    }

    /// The layer of a test.
    /// - Parameters:
    ///   - explicit: what the producer declared (observer API, tag, Bacon `tests`).
    ///   - id: the stable test id.
    ///   - file: the test's source file, when known.
    /// - Returns: the explicit layer; else that of the first rule matching the id or file; else
    ///   ``Layer/ui`` for an id containing `UITest`, ``Layer/integration`` for one containing
    ///   `Integration`; else ``Layer/unit``.
    public func layer(explicit: Layer?, id: String, file: String?) -> Layer {
        if let explicit { return explicit }
        for rule in rules {
            if Glob.matches(rule.pattern, id) || file.map({ Glob.matches(rule.pattern, $0) }) == true {
                return rule.layer
            }
        }
        if id.contains("UITest") { return .ui }
        if id.contains("Integration") { return .integration }
        return .unit
    }
}

/// Shell-style patterns: `*` any run of characters (`/` included), `?` one character.
public enum Glob {
    /// Whether `pattern` matches the whole of `text`.
    ///
    /// - Parameters:
    ///   - pattern: the pattern; every character but `*` and `?` matches only itself.
    ///   - text: the text to match.
    /// - Returns: `true` when the pattern matches all of the text, not just a part of it.
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        let pattern = Array(pattern.unicodeScalars)
        let text = Array(text.unicodeScalars)
        var p = 0
        var t = 0
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
