import Foundation
import LedgerCore
import Testing

/// The test an activity, capture or predicate belongs to.
struct TestContext: Hashable, Sendable {
    enum Library: Hashable, Sendable {
        case xctest
        case swiftTesting
    }

    var library: Library
    /// The stable test id, `Module.Suite/name`.
    var test: String
    var attempt: Int
    var suite: String?
    var name: String?
    var file: String?
    var line: Int?
    var layer: Layer?
    var tags: [String]?

    /// The Swift Testing test running in this task, named as its event stream names it.
    static func swiftTesting() -> TestContext? {
        guard let test = Test.current, test.isSuite == false else { return nil }
        let id = test.id
        let components = id.nameComponents
        let suitePath = components.dropLast()
        let suite = ([id.moduleName] + (suitePath.isEmpty ? [] : [suitePath.joined(separator: "/")]))
            .joined(separator: ".")
        let tags = test.tags.map { String(describing: $0).trimmingPrefix(".") }.map(String.init).sorted()
        let layer = tags.compactMap(Layer.init(rawValue:)).max()
        return TestContext(
            library: .swiftTesting, test: suite + "/" + (components.last ?? test.name), attempt: 1, suite: suite,
            name: test.name, file: test.sourceLocation.filePath, line: test.sourceLocation.line, layer: layer,
            tags: tags.isEmpty ? nil : tags)
    }

    /// The `test.start` event that opens this test's attempt.
    func testStart(at: Double) -> LedgerEvent.TestStart {
        LedgerEvent.TestStart(
            at: at, test: test, attempt: attempt, suite: suite, name: name, file: file, line: line, layer: layer,
            tags: tags)
    }
}

extension Tag {
    /// A fast, isolated test: the base of the pyramid.
    @Tag public static var unit: Self
    /// A test of several parts together, with real files, databases or processes.
    @Tag public static var integration: Self
    /// A test that drives the user interface: the top of the pyramid.
    @Tag public static var ui: Self
}
