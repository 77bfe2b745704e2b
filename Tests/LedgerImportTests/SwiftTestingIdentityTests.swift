import Foundation
import LedgerCore
import LedgerImport
import Testing

/// How a Swift Testing test function is named, placed and tagged in the ledger.
@Suite struct SwiftTestingIdentityTests {
    typealias Builder = SwiftTestingStreamBuilder

    /// A function's Swift Testing id and name, and the ledger's id and suite for it.
    struct Naming: Sendable, CustomTestStringConvertible {
        var id: String
        var name: String
        var test: String
        var suite: String?
        var testDescription: String { id }
    }

    static let namings = [
        Naming(
            id: "Module.Suite/func()/File.swift:4:3", name: "func()", test: "Module.Suite/func()",
            suite: "Module.Suite"),
        Naming(
            id: "Module.func()/File.swift:4:3", name: "func()", test: "Module/func()",
            suite: "Module"),
        Naming(
            id: "Module.Outer/Inner/nested()/File.swift:38:10", name: "nested()",
            test: "Module.Outer/Inner/nested()", suite: "Module.Outer/Inner"),
        Naming(
            id: "Module.Suite/check(value:label:)/File.swift:26:2", name: "check(value:label:)",
            test: "Module.Suite/check(value:label:)", suite: "Module.Suite"),
        Naming(
            id: "Module.Suite/`adds 1/2`()/File.swift:9:2", name: "`adds 1/2`()",
            test: "Module.Suite/`adds 1/2`()", suite: "Module.Suite"),
        Naming(
            id: "Module.Suite/func()", name: "func()", test: "Module.Suite/func()",
            suite: "Module.Suite"),
    ]

    @Test(arguments: namings)
    func stableIDDropsTheSourceLocationAndKeepsModuleAndSuitePath(naming: Naming) throws {
        var stream = Builder(.v63)
        stream.function(naming.id, name: naming.name)
        stream.event("testStarted", naming.id, at: 1)
        stream.event("testEnded", naming.id, at: 2)
        let start = try #require(try SwiftTestingImport.events(stream.data).starts.first)
        #expect(start.test == naming.test)
        #expect(start.suite == naming.suite)
        #expect(start.name == naming.name)
    }

    @Test func functionWithoutATestRecordIsNamedFromItsID() throws {
        var stream = Builder(.v63)
        stream.event("testStarted", "Module.Suite/orphan()/File.swift:4:3", at: 1)
        stream.event("testStarted", "Module.SuiteWithoutRecord", at: 1)
        stream.event("testEnded", "Module.Suite/orphan()/File.swift:4:3", at: 2)
        let events = try SwiftTestingImport.events(stream.data)
        #expect(events.starts.map(\.test) == ["Module.Suite/orphan()"])
        #expect(events.ends.map(\.outcome) == [.passed])
    }

    @Test func displayNameIsNotTheName() throws {
        let id = "M.S/plain()/F.swift:1:1"
        var stream = Builder(.v63)
        stream.raw(
            #"{"kind":"test","payload":{"displayName":"A nice name","id":"\#(id)","isParameterized":false,"kind":"function","name":"plain()","sourceLocation":{"filePath":"/F.swift","line":1,"column":1}},"version":"6.3.0"}"#
        )
        stream.event("testStarted", id, at: 1)
        let start = try #require(try SwiftTestingImport.events(stream.data).starts.first)
        #expect(start.name == "plain()")
    }

    /// Tags as written in the source, and the layer they name.
    static let taggings: [([String], [String]?, Layer?)] = [
        (["unit"], ["unit"], .unit),
        (["integration", "slow"], ["integration", "slow"], .integration),
        (["ui"], ["ui"], .ui),
        (["slow"], ["slow"], nil),
        (["unit", "ui"], ["ui", "unit"], .ui),
        ([], nil, nil),
    ]

    @Test(arguments: Builder.Dialect.allCases, taggings)
    func tagsLoseTheirDotAndNameTheLayer(
        dialect: Builder.Dialect, tagging: ([String], [String]?, Layer?)
    ) throws {
        let id = "M.S/tagged()/F.swift:1:1"
        var stream = Builder(dialect)
        stream.function(id, name: "tagged()", tags: tagging.0)
        stream.event("testStarted", id, at: 1)
        let start = try #require(try SwiftTestingImport.events(stream.data).starts.first)
        #expect(start.tags == tagging.1)
        #expect(start.layer == tagging.2)
    }

    /// Which source-location keys each version writes, and the file the ledger keeps.
    static let locations: [(String, String)] = [
        (
            #"{"filePath":"/a/F.swift","_filePath":"/b/F.swift","fileID":"M/F.swift","line":3}"#,
            "/a/F.swift"
        ),
        (#"{"_filePath":"/b/F.swift","fileID":"M/F.swift","line":3}"#, "/b/F.swift"),
        (#"{"fileID":"M/F.swift","line":3}"#, "M/F.swift"),
    ]

    @Test(arguments: locations)
    func fileComesFromFilePathElseUnderscoredFilePathElseFileID(location: (String, String)) throws {
        var stream = Builder(.v63)
        stream.raw(
            #"{"kind":"test","payload":{"id":"M.f()/F.swift:3:1","isParameterized":false,"kind":"function","name":"f()","sourceLocation":\#(location.0)},"version":"6.3.0"}"#
        )
        stream.event("testStarted", "M.f()/F.swift:3:1", at: 1)
        let start = try #require(try SwiftTestingImport.events(stream.data).starts.first)
        #expect(start.file == location.1)
        #expect(start.line == 3)
    }

    @Test func repeatedRunsOfATestAreSuccessiveAttempts() throws {
        let id = "M.S/flaky()/F.swift:1:1"
        var stream = Builder(.v63)
        stream.function(id, name: "flaky()")
        stream.event("testStarted", id, at: 1)
        stream.issue(id, at: 1.5, messages: [("fail", "Expectation failed")])
        stream.event("testEnded", id, at: 2)
        stream.event("testStarted", id, at: 3)
        stream.event("testEnded", id, at: 4)
        let events = try SwiftTestingImport.events(stream.data)
        #expect(events.starts.map(\.attempt) == [1, 2])
        #expect(events.issues.map(\.attempt) == [1])
        #expect(events.ends.map(\.attempt) == [1, 2])
        #expect(events.ends.map(\.outcome) == [.failed, .passed])
    }

    @Test func iterationNumbersTheAttemptWhenPresent() throws {
        let id = "M.S/repeated()/F.swift:1:1"
        var stream = Builder(.v64)
        stream.function(id, name: "repeated()")
        stream.event("testStarted", id, at: 1, extra: ["iteration": 3])
        stream.event("testEnded", id, at: 2, extra: ["iteration": 3])
        let events = try SwiftTestingImport.events(stream.data)
        #expect(events.starts.map(\.attempt) == [3])
        #expect(events.ends.map(\.attempt) == [3])
    }
}
