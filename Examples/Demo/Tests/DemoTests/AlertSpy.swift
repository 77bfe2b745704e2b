import Demo
import TestLedger

/// Captures alerts instead of presenting them (ViewControllerPresentationSpy's AlertVerifier),
/// and tells the ledger what it saw.
final class AlertSpy: AlertPresenting {
    private(set) var presentedCount = 0
    private(set) var buttons: [AlertButton] = []
    private(set) var title: String?

    func presentAlert(title: String, message: String, buttons: [AlertButton], animated: Bool) {
        presentedCount += 1
        self.title = title
        self.buttons = buttons
        TestLedger.capture(
            AlertCapture(
                title: title, message: message, preferredStyle: .alert,
                actions: buttons.map { AlertCapture.Action(title: $0.title, style: .init($0.style)) },
                animated: animated, presentingController: "DocumentListViewController",
                presentedCount: presentedCount))
    }

    /// Runs a button's handler, as a tap would.
    func tap(_ title: String) {
        buttons.first { $0.title == title }?.handler()
    }
}

extension AlertCapture.Action.Style {
    init(_ style: AlertButton.Style) {
        switch style {
        case .default: self = .default
        case .cancel: self = .cancel
        case .destructive: self = .destructive
        }
    }
}
