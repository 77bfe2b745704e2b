import ArgumentParser
import Foundation
import LedgerCore
import LedgerNotify
import LedgerRecording

extension TestLedgerCommand {
    /// `testledger notify test --target NAME`: tries one of `.testledger.yml`'s `notify` targets.
    struct Notify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "notify", abstract: "Try where the team is told of its tests.", subcommands: [Test.self])

        /// `testledger notify test --target NAME`.
        struct Test: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "test",
                abstract: "Send a sample notification to a target of .testledger.yml's notify.",
                discussion: """
                    The sample is a quarantined event for a test that does not exist, sent as `record` \
                    sends: a webhook gets the notification's JSON, signed in X-TestLedger-Signature when \
                    the target has a secret; a slack target gets blocks. Exits 0 when the target took it \
                    (a 2xx answer), 1 naming the reason when it refused it or did not answer.
                    """)

            @Option(help: "The target's name, as .testledger.yml's notify names it.")
            var target: String
            @Option(help: "The project the sample names (default: .testledger.yml's, else the folder's).")
            var project: String?

            func run() throws {
                let config = try ProjectConfiguration.load()
                guard let target = config.notify.first(where: { $0.name == self.target }) else {
                    let names = config.notify.map(\.name)
                    throw ValidationError(
                        names.isEmpty
                            ? "no notify targets in .testledger.yml: add one (see testledger notify test --help)"
                            : "no notify target \(self.target): the targets are \(names.joined(separator: ", "))")
                }
                let project =
                    project ?? config.project
                    ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).lastPathComponent
                let notifier = Notifier(targets: [target], environment: ProcessInfo.processInfo.environment)
                if let problem = notifier.send(.sample(project: project), to: target) {
                    printError("testledger: \(problem)")
                    throw ExitCode.failure
                }
                print(
                    "notify \(target.name): \(target.url.host ?? "the target") took the sample (\(target.kind.rawValue))"
                )
            }
        }
    }
}
