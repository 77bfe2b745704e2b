import Foundation
import LedgerCore
import LedgerNotify
import LedgerStore
import Logging

/// Tells the server's notify targets what an upload changed, on a task of its own: the upload is
/// answered first, and a target that is down is tried again after each of `retryDelays`, then
/// given up on with a warning in the log.
public struct NotificationDelivery: Sendable {
    /// The targets, as the server's `.testledger.yml` names them.
    public var targets: [NotifyTarget]
    /// The waits, in seconds, before each try after the first.
    public var retryDelays: [Double]
    /// Where the targets' secrets are read from.
    public var environment: [String: String]
    /// The dashboard's address, for each notification's link.
    public var publicURL: URL?
    /// How a wait is waited; a test passes one that does not sleep.
    public var sleep: @Sendable (Double) async -> Void

    /// Creates the delivery.
    public init(
        targets: [NotifyTarget], retryDelays: [Double] = [1, 4, 16],
        environment: [String: String] = ProcessInfo.processInfo.environment, publicURL: URL? = nil,
        sleep: @escaping @Sendable (Double) async -> Void = { try? await Task.sleep(for: .seconds($0)) }
    ) {
        (self.targets, self.retryDelays, self.environment) = (targets, retryDelays, environment)
        (self.publicURL, self.sleep) = (publicURL, sleep)
    }

    /// Starts telling the targets of `notifications` and of what the reports say of `runs`
    /// (``runEvents(of:in:configuration:now:)``), with each test's owners from `database`.
    /// - Returns: the task, whose value is what could not be sent after every try.
    @discardableResult
    func start(
        _ changes: [TestNotification], after runs: [String], configuration: ServerConfiguration,
        database: any ResultStore, logger: Logger
    ) -> Task<[String], Never> {
        Task.detached {
            let notifications =
                changes + (await judged(runs, in: database, configuration: configuration, logger: logger))
            guard !notifications.isEmpty else { return [] }
            let owners = try? await Blocking.run {
                try Dictionary(
                    Set(notifications.map(\.project)).map {
                        ($0, try database.testOwners(project: $0, ownership: nil))
                    },
                    uniquingKeysWith: { first, _ in first })
            }
            let told = notifications.map {
                $0.addressed(owners: owners?[$0.project] ?? .none, dashboard: publicURL)
            }
            var problems: [String] = []
            for target in targets {
                for notification in told where target.events.contains(notification.event) {
                    if let problem = await send(notification, to: target) {
                        logger.warning("\(problem); given up after \(retryDelays.count + 1) tries")
                        problems.append(problem)
                    }
                }
            }
            return problems
        }
    }

    /// ``runEvents(of:in:configuration:now:)`` off the request's thread; none, with a warning in the
    /// log, when the reports cannot be read.
    private func judged(
        _ runs: [String], in database: any ResultStore, configuration: ServerConfiguration, logger: Logger
    )
        async -> [TestNotification]
    {
        guard !runs.isEmpty else { return [] }
        do {
            return try await Blocking.run {
                try runEvents(of: runs, in: database, configuration: configuration, now: Date().timeIntervalSince1970)
            }
        } catch {
            logger.warning("the reports of runs \(runs.joined(separator: ", ")) could not be read: \(error)")
            return []
        }
    }

    /// Sends one notification, trying again after each delay while it is not taken, each try with
    /// the same delivery id.
    private func send(_ notification: TestNotification, to target: NotifyTarget) async -> String? {
        let notifier = Notifier(targets: [target], environment: environment)
        let delivery = UUID().uuidString.lowercased()
        let once = { (try? await Blocking.run { notifier.send(notification, to: target, delivery: delivery) }) ?? nil }
        var problem = await once()
        for delay in retryDelays where problem != nil {
            await sleep(delay)
            problem = await once()
        }
        return problem
    }
}
