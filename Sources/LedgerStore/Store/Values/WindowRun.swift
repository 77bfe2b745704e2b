import Foundation
import LedgerCore

/// A run inside a report's window.
public struct WindowRun: Hashable, Sendable {
    /// The run's row in the store.
    public var row: Int64
    /// The run's id (its UUID).
    public var id: String
    /// The project the run belongs to.
    public var project: String
    /// When the run started, in seconds since 1970.
    public var startedAt: Double
    /// The revision the run tested, when known.
    public var revision: String?
    /// The destination, OS or device the run used; empty when none was named.
    public var configuration: String

    package init(row: Int64, id: String, project: String, startedAt: Double, revision: String?, configuration: String) {
        (self.row, self.id, self.project, self.startedAt) = (row, id, project, startedAt)
        (self.revision, self.configuration) = (revision, configuration)
    }
}

/// What the reports need to know of a test besides its results.
public struct TestInfo: Hashable, Sendable {
    /// The test's stable id.
    public var key: String
    /// The test's source file, when known.
    public var file: String?
    /// The layer its producer declared; `nil` leaves it to ``LayerClassifier``.
    public var declaredLayer: Layer?

    package init(key: String, file: String?, declaredLayer: Layer?) {
        (self.key, self.file, self.declaredLayer) = (key, file, declaredLayer)
    }
}
