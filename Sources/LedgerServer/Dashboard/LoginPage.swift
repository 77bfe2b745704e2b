import Hummingbird

/// `/login`: a form to paste a read token, kept in a cookie, since browsers cannot send
/// `Authorization` headers; also the page a dashboard request without access gets.
enum LoginPage {
    static func render(message: String? = nil, signedInTo project: String? = nil) -> HTML {
        let notice: HTML = message.map { "<p class=\"ko\">\($0)</p>" } ?? ""
        let current: HTML =
            project.map {
                """
                <p>Signed in to <a href="\(DashboardPath.project($0))">\($0)</a>.</p>
                <form method="post" action="/logout"><p><button type="submit">Sign out</button></p></form>
                """
            } ?? ""
        return Layout.page(
            "Log in", crumbs: [.init(title: "Log in")],
            """
            <h1>Log in</h1>
            \(notice)\(current)
            <form method="post" action="/login">
            <p><label for="token">Read token of your project</label><br>
            <input type="password" id="token" name="token" autocomplete="off" required></p>
            <p><button type="submit">Open the dashboard</button></p>
            </form>
            <p class="muted">Make one with <code>testledger token create --project P --scope read</code>.</p>
            """)
    }
}

/// What a dashboard page shows when it cannot show its content.
enum ErrorPage {
    static func render(_ status: HTTPResponse.Status, message: String?) -> HTML {
        let text = message ?? status.reasonPhrase
        switch status {
        case .unauthorized:
            return LoginPage.render(message: text)
        case .forbidden:
            return Layout.page(
                "Not allowed",
                "<h1>Not allowed</h1><p>\(text)</p><p><a href=\"/login\">Log in with another token</a></p>")
        default:
            return Layout.page(
                status.reasonPhrase, "<h1>\(status.reasonPhrase)</h1><p>\(text)</p><p><a href=\"/\">Projects</a></p>")
        }
    }
}
