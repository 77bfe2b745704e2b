import Foundation

/// Where a team is told: a webhook (the notification's JSON, signed when it has a secret) or a
/// Slack incoming webhook (blocks), and the events it wants. `.testledger.yml`'s `notify` entries.
public struct NotifyTarget: Decodable, Hashable, Sendable {
    /// How the target reads what is sent.
    public enum Kind: String, Hashable, Sendable {
        /// The notification's JSON.
        case webhook
        /// Slack's incoming-webhook blocks.
        case slack
    }

    /// The name `notify test --target` calls it by.
    public var name: String
    /// How it reads what is sent.
    public var kind: Kind
    /// Where it is sent.
    public var url: URL
    /// Where the signing secret comes from: `env:NAME`; `nil` for none.
    public var secret: String?
    /// The events it wants; every event when not said.
    public var events: [TestNotification.Event]

    /// Creates a target from its parts.
    public init(
        name: String, kind: Kind, url: URL, secret: String? = nil,
        events: [TestNotification.Event] = TestNotification.Event.allCases
    ) {
        (self.name, self.kind, self.url, self.secret, self.events) = (name, kind, url, secret, events)
    }

    private enum CodingKeys: String, CodingKey { case name, webhook, slack, secret, events }

    /// Reads a `notify` entry: a name, one of `webhook:` and `slack:` (an http or https address),
    /// an optional `secret: env:NAME` and optional `events`.
    /// - Throws: `DecodingError` naming the key and the fix.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        let webhook = try container.decodeIfPresent(String.self, forKey: .webhook)
        let slack = try container.decodeIfPresent(String.self, forKey: .slack)
        guard (webhook == nil) != (slack == nil) else {
            throw DecodingError.dataCorruptedError(
                forKey: .webhook, in: container,
                debugDescription: "notify \(name): give one of webhook: and slack:, an https address")
        }
        kind = webhook != nil ? .webhook : .slack
        let key: CodingKeys = webhook != nil ? .webhook : .slack
        guard let address = webhook ?? slack, let url = URL(string: address), ["http", "https"].contains(url.scheme),
            url.host != nil
        else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "notify \(name): \(key.rawValue) is an http or https address")
        }
        self.url = url
        secret = try container.decodeIfPresent(String.self, forKey: .secret)
        if let secret, !secret.hasPrefix("env:") || secret.count <= 4 {
            throw DecodingError.dataCorruptedError(
                forKey: .secret, in: container,
                debugDescription: "notify \(name): secret names an environment variable, env:NAME, never the secret")
        }
        let words = try container.decodeIfPresent([String].self, forKey: .events)
        let name = self.name
        events = try (words ?? TestNotification.Event.allCases.map(\.rawValue)).map { word in
            guard let event = TestNotification.Event(rawValue: word) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .events, in: container,
                    debugDescription: "notify \(name): no event \(word); the events are "
                        + TestNotification.Event.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return event
        }
    }

    /// The environment variable the secret is read from, when there is one.
    public var secretVariable: String? { secret.map { String($0.dropFirst(4)) } }
}
