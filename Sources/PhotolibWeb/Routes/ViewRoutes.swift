import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// The page's view API and its live stream:
/// - `GET /api/views/KEY`: the view's index, `{view, token, count, grouping, sections: [[key, count]]}` (a few dozen
///   bytes a day: the page lays out 100,000 assets from estimates and loads sections as they near the viewport);
/// - `GET /api/views/KEY/sections?keys=K1,K2`: those sections' tiles, `[id, width, height, mediaType, flags,
///   version, duration]` each;
/// - `GET /api/places`: the library's cities, `{token, places: [{id, city, region, country, countryCode, assetCount,
///   keyAssetId, keyVersion, latitude, longitude}]}`, the most photographed first (a city's photos are the view
///   `place-ID`); the stream of the view `places` carries them again, as `places` events, whenever they change;
/// - `GET /api/duplicates`: the groups of duplicates, `{token, groups: [{keptBecause, members: [{id, version, width,
///   height, fileSize, creationDate, addedDate, filename, favorite}]}]}`, each best first with why its first member is
///   the one a merge keeps (`pixels`, `fileSize`, `addedDate`); the stream of the view `duplicates` carries them again,
///   as `duplicates` events, whenever they change;
/// - `GET /api/events?view=KEY`: Server-Sent Events (see `PageEvent`); a page that reconnects sends the last token
///   it saw (`Last-Event-ID`, or `?since=`) and gets what changed since.
struct ViewRoutes<Context: RequestContext>: Sendable {
    let feed: LibraryFeed

    /// How often a quiet stream says it is alive.
    static var heartbeatInterval: Duration { .seconds(20) }

    func add(to router: Router<Context>) {
        router.get("/api/views/:view") { _, context in
            let spec = try viewSpec(context.parameters.get("view"))
            return json(try await feed.index(of: spec))
        }
        router.get("/api/views/:view/sections") { request, context in
            let spec = try viewSpec(context.parameters.get("view"))
            let keys = (request.uri.queryParameters["keys"].map(String.init) ?? "").split(separator: ",").prefix(200)
                .map(String.init)
            return json(try await feed.sections(of: spec, keys: keys))
        }
        router.get("/api/places") { _, _ in
            json(try await feed.placesJSON())
        }
        router.get("/api/duplicates") { _, _ in
            json(try await feed.duplicatesJSON())
        }
        router.get("/api/events") { request, _ in
            let spec = try viewSpec(request.uri.queryParameters["view"].map(String.init) ?? "timeline")
            let lastToken =
                request.headers[HTTPField.Name("Last-Event-ID")!]
                ?? request.uri.queryParameters["since"].map(String.init)
            return events(for: spec, lastToken: lastToken)
        }
    }

    private func viewSpec(_ key: String?) throws(GalleryError) -> ViewSpec {
        guard let key, let spec = ViewSpec(key: key) else { throw .notFound("no such view") }
        return spec
    }

    private func json(_ bytes: [UInt8]) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private func events(for spec: ViewSpec, lastToken: String?) -> Response {
        let feed = feed
        let body = ResponseBody { writer in
            let page = PageMailbox()
            await feed.subscribe(page, to: spec, lastToken: lastToken)
            let heartbeat = Task {
                while !Task.isCancelled {
                    try await Task.sleep(for: Self.heartbeatInterval)
                    page.post(PageEvent.heartbeat)
                }
            }
            defer { heartbeat.cancel() }
            // A stream never ends by itself: the server's graceful shutdown ends it, or the server would wait for it.
            await withGracefulShutdownHandler {
                do {
                    while let events = await page.events() {
                        try await writer.write(contentsOf: events)
                    }
                } catch {
                    // The page went away.
                }
            } onGracefulShutdown: {
                page.close()
            }
            page.close()
            await feed.unsubscribe(page, from: spec)
            try? await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream", .cacheControl: "no-store",
                HTTPField.Name("X-Accel-Buffering")!: "no",
            ], body: body)
    }
}
