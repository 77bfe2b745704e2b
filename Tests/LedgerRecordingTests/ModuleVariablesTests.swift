import Foundation
import LedgerCore
import Testing

/// The contract with a runner's module is the variables `record` sets: Bacon's module reads each,
/// and its README documents each for whoever writes a module for another runner.
@Suite struct ModuleVariablesTests {
    private let bacon = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Formatters/bacon")

    @Test func baconsModuleReadsAndDocumentsEveryVariableRecordSets() throws {
        let module = try String(contentsOf: bacon.appending(path: "testledger.rb"), encoding: .utf8)
        let readme = try String(contentsOf: bacon.appending(path: "README.md"), encoding: .utf8)
        #expect(LedgerEnvironment.Module.all.count == 9)
        for name in LedgerEnvironment.Module.all {
            #expect(module.contains("'\(name)'") || module.contains("\"\(name)\""), "the module does not read \(name)")
            #expect(readme.contains("`\(name)"), "Formatters/bacon/README.md does not document \(name)")
        }
    }
}
