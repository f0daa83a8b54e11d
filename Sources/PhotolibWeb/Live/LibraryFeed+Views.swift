import CompactJSON
import NIOCore
import PhotoLibrary

/// Opening the views pages ask for, answering their index and sections, and the pages' subscriptions.
extension LibraryFeed {
    /// Views nobody has shown or subscribed to for this long are dropped from the observation.
    static let idleViewLifetime = Duration.seconds(120)

    /// The view's index as the API answers it: `{view, token, count, grouping, sections: [[key, count]]}`.
    func index(of spec: ViewSpec) async throws(GalleryError) -> [UInt8] {
        let open = try await openView(spec)
        var json = JSONWriter(capacity: 64 + open.view.sections.count * 24)
        json.beginObject()
        json.key("view"); json.string(spec.key)
        json.key("token"); json.string(open.view.token)
        json.key("count"); json.int(open.view.ids.count)
        json.key("grouping")
        if case .day = open.view.grouping { json.string("day") } else { json.string("run") }
        json.key("sections"); PageEvent.writeIndex(of: open.view, to: &json)
        json.endObject()
        return json.bytes
    }

    /// The named sections of the view with their tiles: `{view, token, sections: [{key, count, tiles}]}`.
    func sections(of spec: ViewSpec, keys: [String]) async throws(GalleryError) -> [UInt8] {
        let open = try await openView(spec)
        var json = JSONWriter()
        json.beginObject()
        json.key("view"); json.string(spec.key)
        json.key("token"); json.string(open.view.token)
        json.key("sections"); PageEvent.writeSections(of: open.view, keys: keys, tiles: tiles, limit: .max, to: &json)
        json.endObject()
        return json.bytes
    }

    /// Registers a page's event stream for the view; its first events say where the page stands: `hello`, the
    /// collections, then the sections changed since `lastToken` (or `reset` when that token is too old).
    func subscribe(_ page: PageMailbox, to spec: ViewSpec, lastToken: String?) async {
        page.post(PageEvent.hello(daemonUp: daemonUp, token: token))
        page.post(PageEvent.collections(collections))
        if spec.subject == .places {
            await subscribeToPlaces(page)
            return
        }
        if spec.subject == .duplicates {
            await subscribeToDuplicates(page)
            return
        }
        guard let open = try? await openView(spec) else {
            waitingPages[ObjectIdentifier(page)] = page
            return
        }
        views[spec.key]?.pages[ObjectIdentifier(page)] = page
        guard let lastToken, lastToken != open.view.token else { return }
        if let changed = open.view.sectionsChanged(since: lastToken) {
            page.post(PageEvent.sections(of: open.view, named: spec.key, keys: changed, withIndex: true, tiles: tiles))
        } else {
            page.post(PageEvent.reset(reason: "the page's last change token is too old"))
        }
    }

    func unsubscribe(_ page: PageMailbox, from spec: ViewSpec) {
        views[spec.key]?.pages[ObjectIdentifier(page)] = nil
        views[spec.key]?.lastUsed = .now
        waitingPages[ObjectIdentifier(page)] = nil
        placePages[ObjectIdentifier(page)] = nil
        duplicatePages[ObjectIdentifier(page)] = nil
    }

    /// The view, opened first when no page has shown it yet: its query is added to the observation.
    func openView(_ spec: ViewSpec) async throws(GalleryError) -> OpenView {
        if let open = views[spec.key] {
            views[spec.key]?.lastUsed = .now
            return open
        }
        // Just started, or the daemon just came back: the stream's snapshot is usually a moment away.
        let patience = ContinuousClock.now + .seconds(10)
        while !daemonUp, ContinuousClock.now < patience {
            try? await Task.sleep(for: .milliseconds(50))
        }
        guard daemonUp, let observerId else {
            throw .daemon(PhotoLibraryError(code: .daemonNotRunning, message: "the photo library is not answering"))
        }
        if let open = views[spec.key] { return open }
        // A request that finds the view being opened (a page's second request, or a client asking again after a
        // timeout) gets what the opening gets, its error included.
        let result: Result<Void, any Error>
        if let task = openingTasks[spec.key] {
            result = await task.result
        } else {
            let task = Task { try await addView(spec, observerId: observerId) }
            openingTasks[spec.key] = task
            result = await task.result
            openingTasks[spec.key] = nil
        }
        if case .failure(let error) = result {
            throw (error as? GalleryError) ?? .badRequest("\(error)")
        }
        guard let open = views[spec.key] else { throw .notFound("the view \(spec.key) could not be opened") }
        return open
    }

    private func addView(_ spec: ViewSpec, observerId: String) async throws(GalleryError) {
        let (query, grouping) = try await queryAndGrouping(for: spec)
        opening[spec.key] = []
        defer { opening[spec.key] = nil }
        let update = try await connections.withLibrary { library throws(PhotoLibraryError) in
            try await library.updateObservation(observerId, addingAssetQueries: [spec.key: query])
        }
        let ids = update.results.first { $0.name == spec.key }?.ids ?? []
        for tile in try await connections.fetchTiles(ids.filter { tiles[$0] == nil }) { tiles[tile.id] = tile }
        var view = GalleryView(ids: ids, grouping: grouping, token: update.token, tiles: tiles)
        // Changes that arrived while the result was on its way, and are newer than it.
        let start = ChangeToken(update.token)?.generation ?? 0
        for (token, change) in opening[spec.key] ?? [] where (ChangeToken(token)?.generation ?? 0) > start {
            let missing = (change.ids ?? (change.insertedIds ?? []) + (change.changedIds ?? [])).filter {
                tiles[$0] == nil
            }
            for tile in try await connections.fetchTiles(missing) { tiles[tile.id] = tile }
            _ = view.apply(change, touchedBefore: [], token: token, tiles: tiles)
        }
        views[spec.key] = OpenView(spec: spec, query: query, view: view)
    }

    /// Drops the views that no page has used for `idleViewLifetime` (never the timeline), and the tiles of assets no
    /// view holds any more (gone from the library, or only in the views dropped).
    func dropIdleViews() async {
        let now = ContinuousClock.now
        let idle = views.filter { key, open in
            key != ViewSpec.timeline.key && open.pages.isEmpty && now - open.lastUsed > Self.idleViewLifetime
        }.map(\.key)
        for key in idle { views[key] = nil }
        // Not while a view is being built: its tiles are fetched before it is one of `views`.
        if daemonUp, openingTasks.isEmpty {
            let held = views.values.reduce(into: Set<String>()) { held, open in held.formUnion(open.view.ids) }
            if tiles.count > held.count { tiles = tiles.filter { held.contains($0.key) } }
        }
        guard !idle.isEmpty else { return }
        guard let observerId else { return }
        _ = try? await connections.withLibrary { library throws(PhotoLibraryError) in
            try await library.updateObservation(observerId, removing: idle)
        }
    }
}
