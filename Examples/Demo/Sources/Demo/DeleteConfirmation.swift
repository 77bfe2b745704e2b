/// A button of an alert.
public struct AlertButton: Equatable {
    public enum Style: String, Sendable { case `default`, cancel, destructive }

    public var title: String
    public var style: Style
    public var handler: () -> Void

    public init(title: String, style: Style, handler: @escaping () -> Void = {}) {
        self.title = title
        self.style = style
        self.handler = handler
    }

    public static func == (lhs: AlertButton, rhs: AlertButton) -> Bool {
        lhs.title == rhs.title && lhs.style == rhs.style
    }
}

/// Whatever shows alerts: the app's view controller in production, a spy in tests.
public protocol AlertPresenting: AnyObject {
    func presentAlert(title: String, message: String, buttons: [AlertButton], animated: Bool)
}

/// Asks before deleting a document, through an injected ``AlertPresenting``.
public final class DeleteConfirmation {
    private let presenter: any AlertPresenting
    public private(set) var deleted: [String] = []

    public init(presenter: any AlertPresenting) {
        self.presenter = presenter
    }

    /// Shows the question; the document goes only when the user taps Delete.
    public func askToDelete(_ document: String) {
        presenter.presentAlert(
            title: "Delete “\(document)”?", message: "You cannot undo this.",
            buttons: [
                AlertButton(title: "Cancel", style: .cancel),
                AlertButton(title: "Delete", style: .destructive) { [weak self] in self?.deleteNow(document) },
            ], animated: true)
    }

    private func deleteNow(_ document: String) {
        deleted.append(document)
    }
}
