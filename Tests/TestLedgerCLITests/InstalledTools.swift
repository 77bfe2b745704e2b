import Foundation
import LedgerTestSupport
import Testing

/// Programs the tests run when they are installed (`Tests/tools.txt` lists them); a test that
/// needs one that is missing skips, naming it and how to install it.
enum InstalledTools {
    static let bacon = OutsideTools.path("bacon")
    static let ruby = OutsideTools.path("ruby")
    static let node = OutsideTools.path("node")
    static let checkJSONSchema = OutsideTools.path("check-jsonschema")
    /// Whether `python3` can import PyPI's `mcp`, the client that drives `testledger mcp`.
    static let pythonMCP = OutsideTools.available("mcp")
    static let sqlite3 = OutsideTools.available("sqlite3")
    /// Traces a command's system calls: which files it opens, and how.
    static let strace = OutsideTools.path("strace")

    static let checkJSONSchemaSkip = Comment(rawValue: OutsideTools.skip("check-jsonschema"))
    static let pythonMCPSkip = Comment(rawValue: OutsideTools.skip("mcp"))
    static let sqlite3Skip = Comment(rawValue: OutsideTools.skip("sqlite3"))
    static let straceSkip = Comment(rawValue: OutsideTools.skip("strace"))

    static func executable(_ name: String) -> String? { OutsideTools.command(name) }
}
