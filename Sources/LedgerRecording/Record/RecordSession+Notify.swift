import Foundation
import LedgerCore
import LedgerDelivery
import LedgerNotify
import LedgerStore

extension RecordSession {
    /// Whether the run is of the default branch fixes land on and `broken-on-default` watches.
    var isDefaultBranch: Bool {
        guard let branch = metadata.branch else { return false }
        return branch == config.defaultBranch(in: FileManager.default.currentDirectoryPath)
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
        let dashboard = LedgerEnvironment(environment).serverURL
        let told = notifications.map { $0.addressed(owners: owners, dashboard: dashboard) }
        for problem in Notifier(targets: config.notify, environment: environment, budget: network).deliver(told) {
            network.unreached(problem)
            printError("testledger: \(problem)")
        }
    }
}
