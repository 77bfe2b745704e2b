import Foundation
import LedgerCore

/// The shape of JSON documents: every key path with the types found there, not the values.
///
/// One line per path, sorted: `$.flaky[].score: number`. `[]` stands for an array's elements, the
/// union of every element's shape; a key missing from some of the objects at its place is
/// `optional`; `*` stands for the members of an object whose keys are data (a capture's fields),
/// whose values' shapes are merged the same way.
public struct JSONShape: Equatable, Sendable {
    /// What was found at one path.
    private struct Place: Equatable, Sendable {
        var types: Set<String> = []
        /// How many times a value was found here.
        var seen = 0
        /// How many of the values found here were objects: a key of theirs found fewer times is
        /// optional.
        var objects = 0
        /// For an enumerated key, the strings found here.
        var values: Set<String> = []
    }

    private var places: [String: Place] = [:]
    private let maps: Set<String>
    private let folds: [String: String]
    private let enumerations: Set<String>

    /// An empty shape.
    /// - Parameters:
    ///   - maps: the paths of objects whose keys are data, such as `$.captures[].fields`.
    ///   - folds: for a recursive value (a step's children, which have children), each element
    ///     path that repeats another (`$.steps[].children[].children[]`) and the path whose shape
    ///     it joins (`$.steps[].children[]`).
    ///   - enumerations: the names of keys whose string values are a fixed set (`verdict`,
    ///     `kind`): the values found are part of the shape.
    public init(maps: Set<String> = [], folds: [String: String] = [:], enumerations: Set<String> = []) {
        (self.maps, self.folds, self.enumerations) = (maps, folds, enumerations)
    }

    /// The shape of one document.
    /// - Parameters:
    ///   - json: the document's text.
    ///   - maps: the paths of objects whose keys are data.
    /// - Throws: when the text is not JSON.
    public init(json: String, maps: Set<String> = []) throws {
        self.init(maps: maps)
        guard let value = JSONValue(jsonText: json) else {
            throw CocoaError(.coderReadCorrupt, userInfo: [NSLocalizedDescriptionKey: "not JSON: \(json.prefix(200))"])
        }
        add(value)
    }

    /// Adds a document to the shape, as one more element of the same kind.
    /// - Parameter value: the document.
    public mutating func add(_ value: JSONValue) {
        add(value, at: "$")
    }

    private mutating func add(_ value: JSONValue, at unfolded: String) {
        let path = folds[unfolded] ?? unfolded
        places[path, default: Place()].seen += 1
        places[path, default: Place()].types.insert(Self.type(of: value))
        if case .string(let text) = value, let key = path.split(separator: ".").last, enumerations.contains(String(key))
        {
            places[path, default: Place()].values.insert(text)
        }
        switch value {
        case .array(let elements):
            for element in elements {
                add(element, at: path + "[]")
            }
        case .object(let members) where maps.contains(path):
            for (_, member) in members {
                add(member, at: path + ".*")
            }
        case .object(let members):
            places[path, default: Place()].objects += 1
            for (key, member) in members {
                add(member, at: path + "." + key)
            }
        default: break
        }
    }

    /// The path of the object that holds the key at `path`, or `nil` for the root and elements.
    private static func parent(of path: String) -> String? {
        guard !path.hasSuffix("[]"), !path.hasSuffix(".*"), let dot = path.lastIndex(of: ".") else { return nil }
        return String(path[..<dot])
    }

    private static func type(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The shape's text: one `PATH: [optional ]TYPE[|TYPE…][ = VALUE|VALUE…]` line per path, sorted
    /// by path; the values are an enumerated key's.
    public var lines: [String] {
        places.keys.sorted().compactMap { path in
            guard let place = places[path], place.seen > 0 else { return nil }
            let holders = Self.parent(of: path).flatMap { places[$0]?.objects } ?? place.seen
            let optional = place.seen < holders ? "optional " : ""
            let values = place.values.isEmpty ? "" : " = " + place.values.sorted().joined(separator: "|")
            return "\(path): \(optional)\(place.types.sorted().joined(separator: "|"))\(values)"
        }
    }

    /// The paths a contract leaves unpinned: an array never seen holding anything, and a key never
    /// seen but as `null`. Their contents' shape is unknown, so a fixture must fill them.
    public var unfilled: [String] {
        places.keys.sorted().filter { path in
            guard let place = places[path] else { return false }
            let elements = path + "[]"
            return place.types == ["null"]
                || (place.types.contains("array") && places[folds[elements] ?? elements] == nil)
        }
    }

    /// What differs between an expected shape's lines and this shape: one sentence per path that
    /// was removed, added or changed.
    /// - Parameter expected: the expected shape's lines; blank lines and `#` comments are skipped.
    /// - Returns: the differences, empty when the shapes agree.
    public func differences(from expected: [String]) -> [String] {
        func table(_ lines: [String]) -> [String: String] {
            var table: [String: String] = [:]
            for line in lines where !line.hasPrefix("#") {
                guard let colon = line.range(of: ": ") else { continue }
                table[String(line[..<colon.lowerBound])] = String(line[colon.upperBound...])
            }
            return table
        }
        let was = table(expected)
        let now = table(lines)
        return Set(was.keys).union(now.keys).sorted().compactMap { path in
            switch (was[path], now[path]) {
            case (let old?, nil): "`\(path)` was `\(old)` and is gone (a removed key)"
            case (nil, let new?): "`\(path)` is new: `\(new)` (an added key)"
            case (let old?, let new?) where old != new: "`\(path)` was `\(old)`, is now `\(new)`"
            default: nil
            }
        }
    }
}
