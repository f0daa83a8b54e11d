import HTTPTypes
import Hummingbird

/// The gallery's access rules (contract §13), checked before any route:
/// - a `Host` other than the listen address or `localhost` gets 403 (DNS rebinding);
/// - no token and no session cookie gets 401; `?token=` on a page address is exchanged for an HttpOnly,
///   SameSite=Strict cookie and the address without it;
/// - a change (any method but GET and HEAD) whose `Origin` is not the gallery's own gets 403 (cross-site requests).
/// A browser's page load refused with 401 gets the sign-in page rather than JSON.
struct AccessMiddleware<Context: RequestContext>: RouterMiddleware {
    static var cookieName: String { "photolib_session" }
    /// HTTP/1's Host header, as a request built without an authority carries it.
    static var hostField: HTTPField.Name { HTTPField.Name("Host")! }

    let token: AccessToken
    /// The `Host` values accepted: none checked when listening on a Unix socket behind a proxy, which keeps its own
    /// rules.
    let allowedHosts: AllowedHosts
    let signInPage: SignInPage

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let host = request.head.authority ?? request.headers[Self.hostField] ?? ""
        if let allowed = allowedHosts.current, !allowed.contains(host.lowercased()) {
            throw GalleryError.forbidden(
                "\(host.isEmpty ? "a request without a Host" : host) is not this gallery's address")
        }
        let signedIn = request.cookies[Self.cookieName].map { token.matchesSession($0.value[...]) } ?? false
        if !signedIn {
            let offered = request.uri.queryParameters["token"]
            guard let offered, token.matches(offered) else {
                guard SignInPage.isWanted(by: request) else { throw GalleryError.unauthorized }
                return signInPage.response(rejectedToken: offered != nil)
            }
            if request.method == .get, request.uri.path == "/" {
                // Exchanged: the address bar and the history keep no token.
                var response = Response(status: .seeOther, headers: [.location: "/"])
                response.setCookie(sessionCookie)
                return response
            }
        }
        if request.method != .get, request.method != .head {
            let origin = request.headers[.origin]
            guard let origin, origin == "http://\(host)" || origin == "https://\(host)" else {
                throw GalleryError.forbidden("changes are accepted from the gallery's own page only")
            }
        }
        var response = try await next(request, context)
        if !signedIn { response.setCookie(sessionCookie) }
        return response
    }

    private var sessionCookie: Cookie {
        Cookie(name: Self.cookieName, value: token.sessionValue, path: "/", httpOnly: true, sameSite: .strict)
    }
}
