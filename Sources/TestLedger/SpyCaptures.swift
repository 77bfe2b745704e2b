/// What an alert verifier saw: the alert or action sheet a view controller presented.
public struct AlertCapture: Capture, Equatable, Sendable {
    /// How the alert was presented.
    public enum Style: String, Encodable, Sendable {
        /// A centred alert, or an action sheet.
        case alert, actionSheet
    }

    /// One button of the alert.
    public struct Action: Encodable, Equatable, Sendable {
        /// How the button looks and what it means.
        public enum Style: String, Encodable, Sendable {
            /// A plain button, the cancelling one, or one that destroys data.
            case `default`, cancel, destructive
        }

        /// The button's title, when it has one.
        public var title: String?
        /// Default, cancel or destructive.
        public var style: Style

        /// Creates a button.
        ///
        /// - Parameters:
        ///   - title: the button's title.
        ///   - style: its style, ``Style/default`` unless given.
        public init(title: String?, style: Style = .default) {
            self.title = title
            self.style = style
        }
    }

    /// The verifier's name, always `AlertVerifier`; it is not among the stored fields.
    public var verifier: String { "AlertVerifier" }
    /// The alert's title.
    public var title: String?
    /// The alert's message.
    public var message: String?
    /// Alert or action sheet.
    public var preferredStyle: Style
    /// The buttons, in order.
    public var actions: [Action]
    /// Whether it was presented with animation.
    public var animated: Bool
    /// The presenting view controller's type or description.
    public var presentingController: String?
    /// How many times it was presented.
    public var presentedCount: Int

    /// Creates a capture of an alert.
    ///
    /// - Parameters:
    ///   - title: the alert's title.
    ///   - message: the alert's message.
    ///   - preferredStyle: alert or action sheet.
    ///   - actions: the buttons, in order.
    ///   - animated: whether it was presented with animation.
    ///   - presentingController: the presenting view controller's type or description, when known.
    ///   - presentedCount: how many times it was presented.
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
    /// The verifier's name, always `PresentationVerifier`; it is not among the stored fields.
    public var verifier: String { "PresentationVerifier" }
    /// The presented view controller's type.
    public var presentedController: String
    /// Whether it was presented with animation.
    public var animated: Bool
    /// The presenting view controller's type or description, when known.
    public var presentingController: String?
    /// How many times it was presented.
    public var presentedCount: Int

    /// Creates a capture of a presentation.
    ///
    /// - Parameters:
    ///   - presentedController: the presented view controller's type.
    ///   - animated: whether it was presented with animation.
    ///   - presentingController: the presenting view controller's type or description, when known.
    ///   - presentedCount: how many times it was presented.
    public init(
        presentedController: String, animated: Bool, presentingController: String? = nil, presentedCount: Int = 1
    ) {
        (self.presentedController, self.animated) = (presentedController, animated)
        (self.presentingController, self.presentedCount) = (presentingController, presentedCount)
    }
}

/// What a dismissal verifier saw: a view controller dismissed.
public struct DismissalCapture: Capture, Equatable, Sendable {
    /// The verifier's name, always `DismissalVerifier`; it is not among the stored fields.
    public var verifier: String { "DismissalVerifier" }
    /// The dismissed view controller's type, when known.
    public var dismissedController: String?
    /// Whether it was dismissed with animation.
    public var animated: Bool
    /// How many times a dismissal happened.
    public var dismissedCount: Int

    /// Creates a capture of a dismissal.
    ///
    /// - Parameters:
    ///   - dismissedController: the dismissed view controller's type, when known.
    ///   - animated: whether it was dismissed with animation.
    ///   - dismissedCount: how many times a dismissal happened.
    public init(dismissedController: String?, animated: Bool, dismissedCount: Int = 1) {
        self.dismissedController = dismissedController
        self.animated = animated
        self.dismissedCount = dismissedCount
    }
}
