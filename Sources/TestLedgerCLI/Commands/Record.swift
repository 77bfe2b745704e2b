import ArgumentParser
import Foundation

extension TestLedgerCommand {
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run a test command and store its results.")
        @Argument(parsing: .postTerminator) var command: [String]
        func run() throws {}
    }
}
