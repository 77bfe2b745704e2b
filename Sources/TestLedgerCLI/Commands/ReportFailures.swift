import ArgumentParser
import Foundation
import LedgerCore
import LedgerRecording

extension TestLedgerCommand.Report {
    /// `testledger report failures`: failures grouped by cause.
    struct Failures: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "failures",
            abstract: "Group the failures of recent runs by cause: messages that match once numbers, addresses, "
                + "ids and paths are set aside.",
            discussion: """
                With --clusters, group instead the tests that fail in the same runs: each cluster with its \
                tests, how often they fail together, and what separates the runs they fail in (a host, \
                a configuration, the machine's load) where something does — one fix for many flaky tests.
                """)

        @Flag(help: "Group the tests that fail in the same runs, with what their failing runs share.")
        var clusters = false
        @OptionGroup var window: WindowOptions
        @OptionGroup var owners: OwnerOptions
        @OptionGroup var reporting: ReportOptions

        func run() throws {
            let (config, database) = try reporting.open()
            guard let project = try window.project.resolved(in: database) else {
                if clusters {
                    return try reporting.output.print([FailureCluster]()) { FailureClusterRendering.table([]) }
                }
                return try reporting.output.print([FailureGroup]()) { FailureGroupRendering.table([]) }
            }
            let testOwners = try CheckoutOwnership.owners(of: project, config: config, in: database)
            let owner = owners.owner
            if clusters {
                let found = try database.failureClusters(
                    project: project, runs: window.count(config), since: try window.start(),
                    including: { test in owner.map { testOwners(test).includesOwner($0) } ?? true })
                return try reporting.output.print(found) { FailureClusterRendering.table(found) }
            }
            let groups = try database.failureGroups(
                project: project, runs: window.count(config), since: try window.start(),
                including: { test in owner.map { testOwners(test).includesOwner($0) } ?? true }
            ).owned(by: testOwners)
            try reporting.output.print(groups) { FailureGroupRendering.table(groups) }
        }
    }
}
