import MCP

/// The JSON Schemas of the tools' answers (`outputSchema`): the keys an agent may rely on. Keys are
/// only ever added, so every object admits more.
package enum ToolSchemas {
    package static let string: Value = ["type": "string"]
    package static let integer: Value = ["type": "integer"]
    package static let number: Value = ["type": "number"]

    package static func array(_ items: Value) -> Value { ["type": "array", "items": items] }

    /// An object whose keys are all present, but those `optional`.
    package static func object(_ properties: [String: Value], optional: Set<String> = []) -> Value {
        [
            "type": "object", "properties": .object(properties),
            "required": .array(properties.keys.filter { !optional.contains($0) }.sorted().map { .string($0) }),
        ]
    }

    /// A list cut to its first entries, with how many more there are.
    package static func bounded(_ value: Value) -> Value { object(["value": value, "more": integer]) }

    package static let flakyTests = object([
        "runs": integer, "more": integer, "broken": array(string),
        "flaky": array(
            object(
                [
                    "test": string, "configuration": string, "score": number, "failures": integer, "runs": integer,
                    "strip": string, "quarantined": string, "owners": array(string), "culprit": string,
                    "fix": string,
                ], optional: ["quarantined", "owners", "culprit", "fix"])),
    ])

    package static let runSummary = object([
        "headline": string, "moreFailures": integer,
        "report": object(
            [
                "run": string, "project": string, "configuration": string, "tests": integer, "base": string,
                "failures": array(object(["test": string, "verdict": string])), "fixed": array(string),
                "groups": array(["type": "object"]),
            ], optional: ["base"]),
    ])

    package static let testDetail = object([
        "detail": object(
            [
                "test": string, "run": string, "attempt": integer, "attempts": array(string), "outcome": string,
                "duration": number, "issues": array(["type": "object"]), "activities": array(["type": "object"]),
                "captures": array(["type": "object"]), "predicates": array(["type": "object"]),
            ], optional: ["duration"]),
        "history": array(
            object(
                ["run": string, "attempts": array(string), "kind": string, "verdict": string],
                optional: ["kind", "verdict"])),
    ])

    package static let culprit = bounded(
        object(
            [
                "test": string, "configuration": string, "verdict": string, "failingAttempts": integer,
                "passingAttempts": integer, "runs": integer,
                "suspects": array(
                    object([
                        "kind": string, "name": string, "evidence": string, "score": number, "p": number,
                    ])),
            ]))

    package static let failureGroups = bounded(
        array(object(["signature": string, "example": string, "failures": integer, "runs": integer])))

    package static let slowTests = bounded(
        object(["runs": integer, "slowest": array(["type": "object"]), "slowdowns": array(["type": "object"])]))

    package static let quarantine = object(["changed": array(string)])

    package static let status = object(
        [
            "test": string,
            "standing": [
                "type": "string",
                "enum": [
                    "healthy", "flaky", "broken", "quarantined", "unknown", "fix-pending", "fix-landed", "regressed",
                ],
            ],
            "configuration": string, "failureRate": number, "runs": integer, "quarantined": string, "reason": string,
            "fix": ["type": "object"],
        ], optional: ["failureRate", "quarantined", "fix"])

    package static let selection = object([
        "runs": array(
            object([
                "run": string, "mode": string, "targets": integer, "skippedTargets": array(string),
                "missedFailures": array(string), "savedSeconds": number, "testSeconds": number,
            ])),
        "missedFailures": integer, "savedSeconds": number, "savedShare": number,
    ])

    package static let trends = object(
        [
            "project": string, "branch": string, "by": ["type": "string", "enum": ["day", "week", "run"]],
            "since": string, "window": integer,
            "periods": array(
                object(
                    [
                        "start": string, "run": string, "runs": integer, "failedRuns": integer, "failureRate": number,
                        "flaky": integer, "newlyFlaky": array(string), "fixed": array(string), "testsAdded": integer,
                        "testsRemoved": integer, "tests": integer,
                        "wallTime": object(["median": number, "p95": number]), "lostSeconds": number,
                        "pyramid": object(["unit": number, "integration": number, "ui": number]),
                    ], optional: ["run"])),
            "changes": array(
                object(["series": string, "start": string, "from": number, "to": number, "words": string])),
        ], optional: ["branch", "since"])

    package static let verification = object(
        [
            "test": string, "configuration": string, "failureRate": number, "rateFrom": string,
            "confidence": number, "confidenceReached": number, "runsNeeded": integer, "runs": integer,
            "passed": integer, "failed": integer,
            "verdict": [
                "type": "string", "enum": ["fixed", "still-flaky", "inconclusive", "reproduced", "not-reproduced"],
            ],
            "firstFailure": [
                "anyOf": [
                    object(["run": string, "attempt": integer, "message": string], optional: ["message"]),
                    ["type": "null"],
                ]
            ],
            "seconds": number, "remainingRateBelow": ["type": ["number", "null"]], "targetRate": number,
            "brokenBefore": ["type": "boolean"],
        ], optional: ["targetRate", "brokenBefore"])
}
