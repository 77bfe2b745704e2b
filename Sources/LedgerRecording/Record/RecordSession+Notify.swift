import Foundation
import LedgerCore
import LedgerDelivery
import LedgerNotify
import LedgerStore

extension RecordSession {
    /// Whether the run is of the default branch fixes land on and `broken-on-default` watches.
    var isDefaultBranch: Bool {
        guard let branch = metadata.branch else { return false }
        let landing = FixLanding(
            branch: config.fixLanding.branch, checkout: GitInfo.topLevel(in: FileManager.default.currentDirectoryPath))
        return branch == landing.defaultBranch
    }

    /// Tells `.testledger.yml`'s `notify` targets what storing the run changed, each with the
    /// test's owners and, with a team server, its page; a target that cannot be reached is said,
    /// never the job's failure.
    func notify(
        _ notifications: [TestNotification], project: String, in database: any ResultStore, network: NetworkBudget
    ) {
        guard !config.notify.isEmpty, !notifications.isEmpty else { return }
        let environment = ProcessInfo.processInfo.environment
        let owners = (try? CheckoutOwnership.owners(of: project, config: config, in: database)) ?? .none
        let server = LedgerEnvironment(environment).serverURL
        let told = notifications.map { notification in
            var told = notification
            told.owners = owners(notification.test)
            told.url = server.map {
                TestNotification.page(of: notification.test, project: notification.project, on: $0)
            }
            return told
        }
        for problem in Notifier(targets: config.notify, environment: environment, budget: network).deliver(told) {
            network.unreached(problem)
            printError("testledger: \(problem)")
        }
    }
}
