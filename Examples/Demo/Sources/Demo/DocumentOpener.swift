import Foundation

/// Anything that can open a URL: the app in production, a mock in tests.
public protocol URLOpening {
    func canOpen(_ url: URL) -> Bool
    func open(_ url: URL)
}

/// Opens documents in the right app, through an injected ``URLOpening``.
public struct DocumentOpener {
    public enum Mode: String { case view, edit }

    private let opener: any URLOpening

    public init(opener: any URLOpening) {
        self.opener = opener
    }

    /// Opens the document identified by `id` and reports whether it could be.
    @discardableResult
    public func open(documentID id: String, mode: Mode) -> Bool {
        var components = URLComponents()
        components.scheme = "ledgerdocs"
        components.host = "documents"
        components.path = "/" + id
        components.queryItems = [URLQueryItem(name: "mode", value: mode.rawValue)]
        guard let url = components.url, opener.canOpen(url) else { return false }
        opener.open(url)
        return true
    }
}
