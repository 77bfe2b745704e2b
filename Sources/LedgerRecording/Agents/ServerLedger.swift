import Foundation
import LedgerCore
import LedgerDelivery
import LedgerStore

/// `testledger mcp --url`: answers from one project on a team's server, through its API with a
/// token (a read token; a manage token to change the quarantine too). The server judges with its
/// own window and thresholds.
package struct ServerLedger: AgentLedger {
    package let client: ServerClient
    package let project: String

    /// The project named, else the one with the newest run among those the token sees.
    /// - Throws: `ServerReadError` when the server cannot list the token's projects, or it has none.
    package init(client: ServerClient, project: String?) throws {
        self.client = client
        if let project {
            self.project = project
        } else {
            let projects = try client.projects().get()
            guard let newest = projects.max(by: { $0.latestRun < $1.latestRun }) else {
                throw ServerReadError(
                    message: "the token sees no project with runs (name the project with --project)")
            }
            self.project = newest.project
        }
    }

    package func flakyReport(window: Int?, owner: String?) throws -> FlakyReport {
        try get(FlakyReport.self, "flaky", ["runs": window.map(String.init), "owner": owner])
    }

    package func runReport(run: String?, base: String) throws -> RunReport {
        let id: String
        if let run {
            id = run
        } else {
            guard let newest = try get([RunListing].self, "runs", ["limit": "1"]).first else {
                throw ServerReadError(message: "project \(project) has no runs", status: 404)
            }
            id = newest.id
        }
        return try get(RunReport.self, "runs/\(Self.segment(id))/report", ["base": base])
    }

    package func testDetail(test: String, run: String?, attempt: Int?) throws -> TestDetail {
        try get(TestDetail.self, "tests/" + Self.testPath(test), ["run": run, "attempt": attempt.map(String.init)])
    }

    package func history(of detail: TestDetail, limit: Int) throws -> [AttemptsInRun] {
        try get([AttemptsInRun].self, "tests/" + Self.testPath(detail.test) + "/history", ["limit": String(limit)])
    }

    package func culpritReport(test: String, window: Int?) throws -> CulpritReport {
        try get(CulpritReport.self, "tests/" + Self.testPath(test) + "/culprit", ["runs": window.map(String.init)])
    }

    package func failureGroups(window: Int?) throws -> [FailureGroup] {
        try get([FailureGroup].self, "failures", ["runs": window.map(String.init)])
    }

    package func slowReport(window: Int?, limit: Int) throws -> SlowReport {
        try get(SlowReport.self, "slow", ["runs": window.map(String.init), "limit": String(limit)])
    }

    package func quarantine(test: String, mode: QuarantineMode, reason: String) throws -> [QuarantineChange] {
        try requireKnown(test)
        let body = try JSONEncoder().encode(["mode": mode.rawValue, "reason": reason, "by": agentName])
        return try Self.changes(
            client.send("PUT", project: project, path: "quarantine/" + Self.testPath(test), body: body))
    }

    package func release(test: String, reason: String) throws -> [QuarantineChange] {
        try requireKnown(test)
        return try Self.changes(
            client.send(
                "DELETE", project: project, path: "quarantine/" + Self.testPath(test),
                query: ["reason": reason, "by": agentName]))
    }

    package func standing(test: String) throws -> TestStanding {
        try get(TestStanding.self, "tests/" + Self.testPath(test) + "/status", [:])
    }

    package func selectionReport(runs: Int?) throws -> SelectionReport {
        try get(SelectionReport.self, "selection", ["runs": runs.map(String.init)])
    }

    package func trendsReport(by: TrendsReport.Grouping, since: String, branch: String?) throws -> TrendsReport {
        try get(TrendsReport.self, "trends", ["by": by.rawValue, "since": since, "branch": branch])
    }

    /// The quarantine's changes a `PUT` or `DELETE` answered with.
    private static func changes(_ answer: Result<Data, ServerReadError>) throws -> [QuarantineChange] {
        guard let changes = try? JSONDecoder().decode([QuarantineChange].self, from: answer.get()) else {
            _ = try answer.get()
            throw ServerReadError(message: "the quarantine's answer is not a list of changes")
        }
        return changes
    }

    /// Refuses to change the quarantine of a test the project never ran: a typo, most likely.
    private func requireKnown(_ test: String) throws {
        _ = try get([AttemptsInRun].self, "tests/" + Self.testPath(test) + "/history", ["limit": "1"])
    }

    private func get<Value: Decodable>(_ type: Value.Type, _ path: String, _ query: [String: String?]) throws
        -> Value
    {
        try client.get(type, project: project, path: path, query: query.compactMapValues { $0 }).get()
    }

    /// A test's id as the API's path names it: each part percent-encoded, and the last slash too
    /// when the id ends like one of the test's own routes.
    package static func testPath(_ test: String) -> String {
        var parts = test.split(separator: "/", omittingEmptySubsequences: false).map { segment(String($0)) }
        if parts.count > 1, ["culprit", "history", "status"].contains(parts[parts.count - 1]) {
            let last = parts.removeLast()
            parts[parts.count - 1] += "%2F" + last
        }
        return parts.joined(separator: "/")
    }

    private static func segment(_ text: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#%")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
