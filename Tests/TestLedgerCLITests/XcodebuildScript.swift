import Foundation
import LedgerTestSupport
import Testing

/// What the stand-in `xcodebuild`'s test runs answer, one after another (`$XCODEBUILD_SCRIPT`): the
/// first fails one test of the fixture bundle (exit 65), the next runs that test alone and passes.
struct XcodebuildScript {
    let folder: String

    /// - Parameters:
    ///   - cli: the CLI whose folder holds the script.
    ///   - failing: the bundle's identifier of the test that fails first, `RandomStuffTests/testExample()`.
    /// - Throws: what reading the fixture or writing the script throws.
    init(_ cli: CLI, failing: String) throws {
        folder = cli.directory.path("xcodebuild-script")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let fixture = CLI.packageRoot.appending(path: "Tests/Fixtures/XCResultBundle/tests.json")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: fixture)) as? [String: Any])
        let failed = Self.mapping(document) { node in
            guard node["nodeIdentifier"] as? String == failing else { return node }
            var changed = node
            changed["result"] = "Failed"
            changed["children"] = [
                [
                    "nodeType": "Failure Message", "name": "RandomStuffTests.swift:14: the cache was cold",
                    "result": "Failed",
                ]
            ]
            return changed
        }
        // The retry's document holds every test, passing: the stand-in keeps those it selects.
        for (name, value) in [("1.json", failed), ("2.json", document)] {
            try JSONSerialization.data(withJSONObject: value).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        try Data("65".utf8).write(to: URL(fileURLWithPath: folder + "/1.status"))
    }

    /// `node` with `change` made to it and to every node under it.
    static func mapping(_ node: [String: Any], _ change: ([String: Any]) -> [String: Any]) -> [String: Any] {
        var changed = change(node)
        for key in ["testNodes", "children"] {
            if let children = changed[key] as? [[String: Any]] { changed[key] = children.map { mapping($0, change) } }
        }
        return changed
    }

}
