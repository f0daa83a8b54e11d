import Foundation
import Logging
import NIOCore
import PhotoLibrary

/// The gallery's one change stream from the daemon: a single `Observe` with a named query per view the open pages
/// show (the timeline always), whose change details keep each view and the sidebar's collections current and are
/// fanned out, as section updates, to the pages that show them.
///
/// When the daemon stops, every page is told so, and the feed connects again by itself; once back, the pages reload
/// their views.
actor LibraryFeed {
    struct OpenView {
        var spec: ViewSpec
        var query: AssetQuery
        var view: GalleryView
        var pages: [ObjectIdentifier: PageMailbox] = [:]
        var lastUsed = ContinuousClock.now
    }

    /// The sidebar's query: albums, folders and smart albums (a moment per day would swamp it).
    static let collectionsQuery = CollectionQuery(predicate: "kind != 'moment'")
    static let collectionsName = "gallery.collections"

    let connections: LibraryConnections
    /// Told of the assets that leave the library, whose thumbnails must not be served any longer.
    let recentThumbnails: RecentThumbnails
    let logger: Logger
    var views: [String: OpenView] = [:]
    var tiles: TileStore = [:]
    private(set) var collections: [AssetCollection] = []
    private(set) var daemonUp = false
    var token: String?
    var observerId: String?
    /// Views being opened: their changes that arrive meanwhile, applied once the view's first result is in.
    var opening: [String: [(token: String, change: FetchResultChange)]] = [:]
    var openingTasks: [String: Task<Void, any Error>] = [:]
    /// Pages of views that are not open yet (the daemon is down): told when it is back.
    var waitingPages: [ObjectIdentifier: PageMailbox] = [:]
    /// Pages showing the Places view, told when the library's cities change (LibraryFeed+Places).
    var placePages: [ObjectIdentifier: PageMailbox] = [:]
    /// The cities as last fetched, and the count of asset changes they are current for.
    var places: PlaceList?
    /// The cities the place pages were sent last.
    var placesPosted: PlaceList?
    var assetChanges = 0
    var placesRefresh: Task<Void, Never>?
    /// Pages showing the Duplicates view, told when the groups change (LibraryFeed+Duplicates).
    var duplicatePages: [ObjectIdentifier: PageMailbox] = [:]
    /// The groups as last fetched, and the count of changes they are current for.
    var duplicates: DuplicateList?
    /// The groups the duplicate pages were sent last.
    var duplicatesPosted: DuplicateList?
    var duplicateChanges = 0
    var duplicatesRefresh: Task<Void, Never>?

    init(connections: LibraryConnections, recentThumbnails: RecentThumbnails, logger: Logger) {
        self.connections = connections
        self.recentThumbnails = recentThumbnails
        self.logger = logger
    }

    /// Follows the daemon until cancelled, connecting again one second after it stopped.
    func run() async {
        while !Task.isCancelled {
            do {
                let library = try await PhotoLibrary.connect(socketPath: connections.socketPath)
                defer { Task { await library.close() } }
                var queries = views.mapValues(\.query)
                queries[ViewSpec.timeline.key] = queries[ViewSpec.timeline.key] ?? timelineQuery
                let stream = library.observe(
                    assetQueries: queries, collectionQueries: [Self.collectionsName: Self.collectionsQuery])
                for try await event in stream {
                    try await handle(event)
                }
            } catch {
                // The daemon stopping (ServiceStopping) or the gallery stopping is a normal end, not worth a warning.
                let normalEnd = Task.isCancelled || (error as? PhotoLibraryError)?.code == .daemonStopping
                if daemonUp {
                    logger.log(level: normalEnd ? .info : .warning, "the daemon's change stream ended: \(error)")
                }
            }
            if daemonUp {
                daemonUp = false
                observerId = nil
                broadcast(PageEvent.daemon(up: false))
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    private var timelineQuery: AssetQuery { (try? ViewSpec.timeline.query(collection: nil).0) ?? AssetQuery() }

    /// Applies one reply of the stream: the snapshot (at the start and after a reconnect) or a committed change.
    private func handle(_ event: LibraryChangeEvent) async throws {
        if event.isSnapshot {
            try await takeSnapshot(event)
            return
        }
        recentThumbnails.forget(
            assetIds: Set(event.objects.filter { $0.kind == .asset && $0.change == .removed }.map(\.id)))
        let results = Dictionary(event.results.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        for (name, change) in results where opening[name] != nil {
            opening[name]?.append((event.token, change))
        }
        // The tiles of inserted and changed assets, and of assets changed in views whose result did not change.
        var wanted = Set<String>()
        for (name, change) in results where views[name] != nil {
            if let ids = change.ids {
                wanted.formUnion(ids.filter { tiles[$0] == nil })
            } else {
                wanted.formUnion(change.insertedIds ?? [])
                wanted.formUnion(change.changedIds ?? [])
            }
        }
        let changedAssets = Set(
            event.objects.filter { $0.kind == .asset && $0.change == .changed && tiles[$0.id] != nil }.map(\.id))
        wanted.formUnion(changedAssets)
        let fetched = try await connections.fetchTiles(Array(wanted))
        var touchedBefore: [String: Set<String>] = [:]
        for (name, change) in results {
            if let open = views[name] { touchedBefore[name] = open.view.keysTouched(before: change, tiles: tiles) }
        }
        for tile in fetched { tiles[tile.id] = tile }
        for key in views.keys.sorted() {
            guard var open = views[key] else { continue }
            let update: GalleryView.Update?
            if let change = results[key] {
                update = open.view.apply(
                    change, touchedBefore: touchedBefore[key] ?? [], token: event.token, tiles: tiles)
            } else {
                update = open.view.touch(changedAssets, token: event.token)
            }
            views[key] = open
            if let update, update.sectionsChanged || !update.changedKeys.isEmpty {
                post(
                    PageEvent.sections(
                        of: open.view, named: key, keys: update.changedKeys, withIndex: update.sectionsChanged,
                        tiles: tiles), toPagesOf: key)
            }
        }
        token = event.token
        if event.objects.contains(where: { $0.kind == .asset }) { placesChanged() }
        // A group changes with its assets, and when a fingerprint made after the import finds a copy: then only the
        // Duplicates album is announced.
        if event.objects.contains(where: { $0.kind == .asset || $0.kind == .collection }) { duplicatesChanged() }
        if results[Self.collectionsName] != nil || event.objects.contains(where: { $0.kind == .collection }) {
            await refreshCollections()
        }
    }

    private func takeSnapshot(_ event: LibraryChangeEvent) async throws {
        observerId = event.observerId
        token = event.token
        let wasDown = !daemonUp
        var built: [String: OpenView] = [:]
        for result in event.results where result.name != Self.collectionsName {
            let ids = result.ids ?? []
            let missing = ids.filter { tiles[$0] == nil }
            for tile in try await connections.fetchTiles(missing) { tiles[tile.id] = tile }
            let previous = views[result.name]
            let spec = previous?.spec ?? ViewSpec(key: result.name) ?? ViewSpec.timeline
            guard let (query, grouping) = try? await queryAndGrouping(for: spec) else { continue }
            var open = OpenView(
                spec: spec, query: query,
                view: GalleryView(ids: ids, grouping: grouping, token: event.token, tiles: tiles))
            open.pages = previous?.pages ?? [:]
            built[result.name] = open
        }
        views = built
        daemonUp = true
        placesChanged()
        duplicatesChanged()
        await refreshCollections()
        if wasDown {
            broadcast(PageEvent.daemon(up: true))
            broadcast(PageEvent.reset(reason: "the library is back"))
            for page in waitingPages.values { page.post(PageEvent.reset(reason: "the library is back")) }
            waitingPages = [:]
        }
        logger.info(
            "following the library: \(views[ViewSpec.timeline.key]?.view.ids.count ?? 0) assets in the timeline")
    }

    /// Fetches the sidebar's collections again and tells the pages when they differ.
    func refreshCollections() async {
        guard
            let fetched = try? await connections.withLibrary({ library throws(PhotoLibraryError) in
                try await library.fetchAllCollections(matching: Self.collectionsQuery).collections
            })
        else { return }
        guard fetched != collections else { return }
        collections = fetched
        broadcast(PageEvent.collections(fetched))
    }

    /// The daemon's query for `spec`, and how its view is cut into sections.
    func queryAndGrouping(for spec: ViewSpec) async throws(GalleryError) -> (AssetQuery, GalleryView.Grouping) {
        if case .place(let id) = spec.subject { return try spec.query(collection: nil, place: try await place(id)) }
        guard case .collection(let id) = spec.subject else { return try spec.query(collection: nil) }
        var collection = collections.first { $0.id == id }
        if collection == nil {
            collection = try await connections.withLibrary { library throws(PhotoLibraryError) in
                try await library.fetchCollections(matching: CollectionQuery(ids: [id])).collections.first
            }
        }
        return try spec.query(collection: collection)
    }

    func post(_ event: ByteBuffer, toPagesOf key: String) {
        for page in views[key]?.pages.values ?? [:].values { page.post(event) }
    }

    func broadcast(_ event: ByteBuffer) {
        for open in views.values {
            for page in open.pages.values { page.post(event) }
        }
        for page in waitingPages.values { page.post(event) }
        for page in placePages.values { page.post(event) }
        for page in duplicatePages.values { page.post(event) }
    }
}
