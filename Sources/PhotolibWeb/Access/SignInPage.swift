import HTTPTypes
import Hummingbird

/// What a browser gets instead of the gallery without the token or the session cookie: a small page, still with
/// status 401, that says where the address with its token is found and takes a pasted token (sent as `?token=`,
/// which the access rules exchange for the cookie). API clients, which do not ask for HTML, keep the JSON 401.
struct SignInPage: Sendable {
    /// The file the token is kept in, named on the page; nil when the gallery was given its token otherwise.
    let tokenPath: String?

    /// A browser's page load asks for HTML first; `fetch` and scripts ask for `*/*` or JSON.
    static func isWanted(by request: Request) -> Bool {
        guard request.method == .get || request.method == .head else { return false }
        return request.headers[.accept]?.contains("text/html") == true
    }

    /// The page; `rejectedToken` when a token was offered that does not open this gallery.
    func response(rejectedToken: Bool) -> Response {
        let headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
            // No script at all; the one inline style is the page's only resource.
            .contentSecurityPolicy:
                "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; "
                + "frame-ancestors 'none'",
            HTTPField.Name("X-Content-Type-Options")!: "nosniff", HTTPField.Name("Referrer-Policy")!: "no-referrer",
        ]
        return Response(
            status: .unauthorized, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: html(rejectedToken))))
    }

    private func html(_ rejectedToken: Bool) -> String {
        let rejected = rejectedToken ? #"<p class="error" role="alert">That token does not open this gallery.</p>"# : ""
        let file = tokenPath.map { " (it is kept in <code>\(Self.escaped($0))</code>)" } ?? ""
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Sign in · photolib-web</title>
            <style>
            :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
            main { max-width: 34rem; margin: 12vh auto; padding: 0 1rem; line-height: 1.5; }
            code { font-size: 0.95em; }
            form { display: flex; gap: 0.5rem; margin-top: 1.5rem; }
            input { flex: 1; font: inherit; padding: 0.4rem; }
            button { font: inherit; padding: 0.4rem 1rem; }
            .error { color: #d33; }
            </style>
            </head>
            <body>
            <main>
            <h1>The photo gallery needs its token</h1>
            \(rejected)
            <p>This gallery opens with the address it printed when it started, which carries its token. To see that \
            address again, run <code>photolib gallery</code> in a terminal on this machine (<code>photolib gallery \
            --open</code> opens it in the browser).</p>
            <p>Or paste the token here, what follows <code>token=</code> in that address\(file):</p>
            <form method="get" action="/">
            <label for="token" hidden>Token</label>
            <input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required autofocus>
            <button type="submit">Open the gallery</button>
            </form>
            </main>
            </body>
            </html>

            """
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
