import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import PhotolibWeb

/// Contract §13's access rules, at the HTTP level.
@Suite(.serialized)
struct AccessRuleTests {
    @Test func aRequestWithoutTheTokenOrTheSessionCookieIsRefusedWith401() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 0)
        try await gallery.test { client in
            for path in [
                "/", "/api/views/timeline", "/page/main.js", "/image/x/o/256",
                "/?token=\(String(repeating: "0", count: 64))",
            ] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .unauthorized, "\(path)")
            }
            let forged = try await client.execute(
                uri: "/api/views/timeline", method: .get,
                headers: [.cookie: "photolib_session=\(gallery.token.value)"])
            #expect(forged.status == .unauthorized)
        }
    }

    @Test func aBrowserWithoutTheTokenGetsASignInPageStill401AndAnAPIClientJSON() async throws {
        var started = try await GalleryUnderTest.start(photos: 0)
        started.configuration.tokenPath = "/run/user/1000/photolibd/web-token"
        let gallery = started
        try await gallery.test { client in
            let browser: HTTPFields = [.accept: "text/html,application/xhtml+xml,*/*;q=0.8"]
            let page = try await client.execute(uri: "/", method: .get, headers: browser)
            #expect(page.status == .unauthorized)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            let text = String(buffer: page.body)
            #expect(text.contains("photolib gallery") && text.contains("/run/user/1000/photolibd/web-token"))
            #expect(text.contains(#"<form method="get" action="/">"#) && text.contains(#"name="token""#))
            #expect(!text.contains(gallery.token.value) && !text.contains("<script"))
            #expect(!text.contains("does not open"))
            let wrong = try await client.execute(
                uri: "/?token=\(String(repeating: "0", count: 64))", method: .get, headers: browser)
            #expect(wrong.status == .unauthorized && String(buffer: wrong.body).contains("does not open this gallery"))
            for accept in [nil, "*/*", "application/json"] as [String?] {
                let api = try await client.execute(
                    uri: "/api/views/timeline", method: .get,
                    headers: accept.map { [.accept: $0] } ?? [:])
                #expect(api.status == .unauthorized && api.headers[.contentType]?.hasPrefix("application/json") == true)
            }
            // A change is refused as JSON whatever it accepts: the page is for reading the address off, nothing else.
            let change = try await client.execute(uri: "/api/changes", method: .post, headers: browser)
            #expect(
                change.status == .unauthorized && change.headers[.contentType]?.hasPrefix("application/json") == true)
        }
    }

    @Test func theTokenIsExchangedForAnHttpOnlySameSiteStrictCookie() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 0)
        try await gallery.test { client in
            let response = try await client.execute(uri: "/?token=\(gallery.token.value)", method: .get)
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/")
            let cookie = try #require(response.headers[.setCookie])
            #expect(cookie.hasPrefix("photolib_session=\(gallery.token.sessionValue)"))
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            #expect(!cookie.contains(gallery.token.value))
            let page = try await client.execute(uri: "/", method: .get, headers: gallery.signedIn)
            #expect(page.status == .ok)
            #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
        }
    }

    @Test func aHostOtherThanTheListenAddressOrLocalhostIsRefusedWith403() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 0)
        try await gallery.test { client in
            let port = try #require(client.port)
            let cookie = "photolib_session=\(gallery.token.sessionValue)"
            for host in ["evil.example", "evil.example:\(port)", "192.168.1.5:\(port)", "localhost.evil.example"] {
                let request =
                    "GET /api/views/timeline HTTP/1.1\r\nHost: \(host)\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n"
                #expect(try GalleryClient.rawStatus(port: port, request: request) == 403, "\(host)")
            }
            for host in ["localhost:\(port)", "127.0.0.1:\(port)", "localhost"] {
                let request =
                    "GET /api/views/timeline HTTP/1.1\r\nHost: \(host)\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n"
                #expect(try GalleryClient.rawStatus(port: port, request: request) == 200, "\(host)")
            }
        }
    }

    @Test func aChangeFromAnotherOriginIsRefusedWith403() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 1)
        try await gallery.test { client in
            let body = ByteBuffer(string: #"{"action":"favorite","ids":["\#(gallery.assetIds[0])"],"value":true}"#)
            for origin in ["http://evil.example", "null", nil] as [String?] {
                var headers = gallery.signedIn
                headers[.origin] = origin
                let response = try await client.execute(
                    uri: "/api/changes", method: .post, headers: headers, body: body)
                #expect(response.status == .forbidden, "\(origin ?? "no Origin")")
            }
            let allowed = try await client.execute(
                uri: "/api/changes", method: .post, headers: gallery.signedIn, body: body)
            #expect(allowed.status == .ok)
        }
    }

    @Test func theTokenFileIsPrivateAndKeepsTheSameTokenAcrossRestarts() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("web-token-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/photolibd/web-token"
        let first = try AccessToken.loadOrCreate(at: path)
        let again = try AccessToken.loadOrCreate(at: path)
        #expect(first == again)
        #expect(first.value.count == 64)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
