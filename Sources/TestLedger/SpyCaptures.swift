/// What an alert verifier saw: the alert or action sheet a view controller presented.
public struct AlertCapture: Capture, Equatable, Sendable {
    public enum Style: String, Encodable, Sendable {
        case alert, actionSheet
    }

    /// One button of the alert.
    public struct Action: Encodable, Equatable, Sendable {
        public enum Style: String, Encodable, Sendable {
            case `default`, cancel, destructive
        }

        public var title: String?
        public var style: Style

        public init(title: String?, style: Style = .default) {
            self.title = title
            self.style = style
        }
    }

    public var verifier: String { "AlertVerifier" }
    public var title: String?
    public var message: String?
    public var preferredStyle: Style
    public var actions: [Action]
    public var animated: Bool
    /// The presenting view controller's type or description.
    public var presentingController: String?
    public var presentedCount: Int

    public init(
        title: String?, message: String?, preferredStyle: Style = .alert, actions: [Action], animated: Bool,
        presentingController: String? = nil, presentedCount: Int = 1
    ) {
        self.title = title
        self.message = message
        self.preferredStyle = preferredStyle
        self.actions = actions
        self.animated = animated
        self.presentingController = presentingController
        self.presentedCount = presentedCount
    }
}

/// What a presentation verifier saw: a view controller presented (or a segue performed).
public struct PresentationCapture: Capture, Equatable, Sendable {
    public var verifier: String { "PresentationVerifier" }
    /// The presented view controller's type.
    public var presentedController: String
    public var animated: Bool
    public var presentingController: String?
    public var presentedCount: Int

    public init(
        presentedController: String, animated: Bool, presentingController: String? = nil, presentedCount: Int = 1
    ) {
        self.presentedController = presentedController
        self.animated = animated
        self.presentingController = presentingController
        self.presentedCount = presentedCount
    }
}

/// What a dismissal verifier saw: a view controller dismissed.
public struct DismissalCapture: Capture, Equatable, Sendable {
    public var verifier: String { "DismissalVerifier" }
    public var dismissedController: String?
    public var animated: Bool
    public var dismissedCount: Int

    public init(dismissedController: String?, animated: Bool, dismissedCount: Int = 1) {
        self.dismissedController = dismissedController
        self.animated = animated
        self.dismissedCount = dismissedCount
    }
}
