import Crypto
import Foundation
import LedgerCore
import LedgerDelivery

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Tells a team's targets what happened to its tests, within the network budget: a target that is
/// down or refuses is said, never the job's failure.
package struct Notifier {
    /// The targets, as `.testledger.yml` names them.
    package var targets: [NotifyTarget]
    /// Where the targets' secrets are read from.
    package var environment: [String: String]
    /// The network time the sends may take, shared with the command's other calls; `nil` for none.
    package var budget: NetworkBudget?

    /// Creates a notifier.
    package init(targets: [NotifyTarget], environment: [String: String], budget: NetworkBudget? = nil) {
        (self.targets, self.environment, self.budget) = (targets, environment, budget)
    }

    /// The request that tells `target` of `notification`: a POST of its JSON (or Slack's blocks),
    /// `X-TestLedger-Event` naming the event, `X-TestLedger-Delivery` the same for every try of it
    /// (a receiver drops a repeat by it), and with a secret `X-TestLedger-Signature: sha256=HEX`,
    /// the HMAC-SHA256 of the body.
    package static func request(
        _ notification: TestNotification, to target: NotifyTarget, secret: String?, delivery: String
    ) throws -> URLRequest {
        var request = URLRequest(url: target.url, timeoutInterval: 10)
        request.httpMethod = "POST"
        let body = target.kind == .webhook ? try notification.webhookBody() : try notification.slackBody()
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("testledger/\(TestLedgerVersion.current)", forHTTPHeaderField: "User-Agent")
        request.setValue(notification.event.rawValue, forHTTPHeaderField: "X-TestLedger-Event")
        request.setValue(delivery, forHTTPHeaderField: "X-TestLedger-Delivery")
        if let secret {
            request.setValue(signature(of: body, secret: secret), forHTTPHeaderField: "X-TestLedger-Signature")
        }
        return request
    }

    /// `sha256=` and the hex HMAC-SHA256 of `body` keyed by `secret`.
    package static func signature(of body: Data, secret: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + code.map { String(format: "%02x", $0) }.joined()
    }

    /// Sends `notification` to `target`.
    /// - Parameters:
    ///   - notification: what is told.
    ///   - target: who is told.
    ///   - delivery: the id of this delivery, the same for each try of it.
    /// - Returns: `nil` when the target took it (a 2xx answer); else why not, naming the target.
    package func send(
        _ notification: TestNotification, to target: NotifyTarget, delivery: String = UUID().uuidString.lowercased()
    ) -> String? {
        var secret: String?
        if let variable = target.secretVariable {
            guard let value = environment[variable], !value.isEmpty else {
                return "notify \(target.name): \(variable) is not set, so nothing was sent unsigned; set it to the "
                    + "secret the receiver checks"
            }
            secret = value
        }
        let request: URLRequest
        do {
            request = try Self.request(notification, to: target, secret: secret, delivery: delivery)
        } catch {
            return "notify \(target.name): the notification could not be written: \(error)"
        }
        switch HTTPExchange.send(request, budget: budget) {
        case .success(let answer) where (200..<300).contains(answer.status):
            return nil
        case .success(let answer):
            let said = String(decoding: answer.body.prefix(200), as: UTF8.self)
            return "notify \(target.name): \(target.url.host ?? "the target") refused it with HTTP \(answer.status)"
                + (said.isEmpty ? "" : ": \(said)")
        case .failure(let error):
            return "notify \(target.name): \(target.url.host ?? "the target") did not answer: \(error.message)"
        }
    }

    /// Sends each notification to every target that wants its event.
    /// - Returns: what could not be sent.
    package func deliver(_ notifications: [TestNotification]) -> [String] {
        targets.flatMap { target in
            notifications.filter { target.events.contains($0.event) }.compactMap { send($0, to: target) }
        }
    }
}
