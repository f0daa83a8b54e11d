import Foundation
import PhotoLibrary
import LibraryStore
import PhotoModel
import Testing
import TestSupport
import Varlink

/// A daemon serving a library built through the store, with assets of every kind the smart albums hold
/// (videos, screenshots, Live Photos, panoramas by shape and by subtype, a three-frame burst, RAW pairs,
/// a favorite, a hidden and a trashed asset), in several local days and time zones.
enum ModelLibrary {
    /// Each asset's name, creation date and what sets it apart.
    static let assets: [(name: String, created: String?, configure: @Sendable (inout AssetDraft) -> Void)] = [
        ("plain", "2024-01-02T10:00:00+01:00", { _ in }),
        ("undated", nil, { _ in }),
        ("video", "2024-03-01T12:00:00Z", { $0.mediaType = .video; $0.duration = 12.5 }),
        ("screenshot", "2023-12-31T23:00:00-05:00", { $0.mediaSubtypes = .photoScreenshot }),
        ("live", "2024-03-01T08:00:00Z", { $0.mediaSubtypes = .photoLive }),
        ("panorama", "2024-03-02T12:00:00Z", { $0.pixelWidth = 9000; $0.pixelHeight = 3000 }),
        ("taggedPanorama", "2024-03-02T13:00:00Z", { $0.mediaSubtypes = .photoPanorama }),
        ("raw", "2024-03-03T12:00:00Z", {
            $0.resources.append(DraftResource(type: .alternatePhoto, originalFilename: "raw.CR3", mimeType: "image/x-canon-cr3",
                                              fileSize: 20, path: "/nonexistent/raw.CR3", isOwnedByLibrary: false))
        }),
        ("burst1", "2024-03-04T12:00:01Z", { $0.burstIdentifier = "burst" }),
        ("burst2", "2024-03-04T12:00:02Z", { $0.burstIdentifier = "burst" }),
        ("burst3", "2024-03-04T12:00:03Z", { $0.burstIdentifier = "burst" }),
        ("favorite", "2024-05-05T05:05:05+05:00", { _ in }),
        ("hidden", "2024-05-06T12:00:00Z", { _ in }),
        ("trashed", "2024-05-07T12:00:00Z", { _ in }),
    ]

    /// Builds the library, marks the favorite, hides and trashes, starts the daemon; returns it with the ids by name.
    static func make(extraConfig: String = "") async throws -> (library: PopulatedDaemon, ids: [String: String]) {
        let daemon = try DaemonProcess(extraConfig: extraConfig)
        try FileManager.default.createDirectory(atPath: daemon.libraryPath, withIntermediateDirectories: true)
        let database = try LibraryDatabase(path: daemon.libraryPath + "/library.sqlite")
        var drafts: [Int: AssetDraft] = [:]
        for (index, asset) in assets.enumerated() {
            var draft = AssetDraft(
                mediaType: .image, pixelWidth: 4000, pixelHeight: 3000, orientation: 1,
                creationDate: asset.created.flatMap(Timestamp.init(rfc3339:)), creationDateSource: .exif, location: nil,
                contentHash: "model-\(asset.name)",
                resources: [DraftResource(type: .photo, originalFilename: asset.name + ".jpg", mimeType: "image/jpeg",
                                          fileSize: Int64(100 * (index + 1)), path: "/nonexistent/\(asset.name).jpg",
                                          isOwnedByLibrary: false)])
            asset.configure(&draft)
            drafts[index] = draft
        }
        let created = try await database.performChanges(
            assets.map { LibraryChange.createAsset(AssetCreation(path: "/nonexistent/\($0.name).jpg", placeholder: "@" + $0.name)) } + [
                .updateAsset(target: "@favorite", AssetUpdate(isFavorite: true)),
                .updateAsset(target: "@hidden", AssetUpdate(isHidden: true)),
                .deleteAssets(ids: ["@trashed"], permanently: false),
            ], drafts: drafts).created
        let ids = Dictionary(uniqueKeysWithValues: assets.map { ($0.name, created["@" + $0.name]!) })
        try await daemon.start()
        let library = PopulatedDaemon(daemon: daemon, client: try await PhotoLibrary.connect(socketPath: daemon.socketPath),
                                      connection: try await daemon.connect(),
                                      assetIds: assets.map { ids[$0.name]! }, photos: try TemporaryDirectory())
        return (library, ids)
    }
}

/// Everything a client can see of a library, to compare before and after.
struct LibraryContents: Equatable {
    /// Every asset: hidden, trashed and burst frames too.
    var assets: [Asset]
    var collections: [AssetCollection]
    /// Each album's assets and each folder's children, in order.
    var contents: [String: [String]]
}

extension PopulatedDaemon {
    func everything() async throws -> LibraryContents {
        let assets = try await client.fetchAllAssets(
            matching: AssetQuery(includeHidden: true, includeTrashed: true, includeAllBurstAssets: true)).assets
        let collections = try await self.collections(CollectionQuery())
        var contents: [String: [String]] = [:]
        for collection in collections {
            switch collection.kind {
            case .album:
                contents[collection.id] = try await fetchIds(AssetQuery(collection: collection.id, includeHidden: true, includeTrashed: true))
            case .folder:
                contents[collection.id] = try await self.collections(CollectionQuery(parent: collection.id)).map(\.id)
            default:
                break
            }
        }
        return LibraryContents(assets: assets, collections: collections, contents: contents)
    }

    /// The library's change token.
    func token() async throws -> String {
        try await client.fetchAssets(pageSize: 0).token
    }

    /// Every collection `query` selects, in order.
    func collections(_ query: CollectionQuery) async throws -> [AssetCollection] {
        try await client.fetchAllCollections(matching: query).collections
    }

    /// The titles of the collections `query` selects, in order.
    func titles(_ query: CollectionQuery) async throws -> [String] {
        try await collections(query).map(\.title)
    }

    /// Performs the changes, expecting the daemon's error `name` (with `index` and `reason` when given), and
    /// checks that the library, its token and everything in it are as they were.
    func expectRefusal(_ changes: PhotoLibrary.ChangeBuilder, _ name: String, index: Int? = nil, reason: String? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let token = try await token()
        let before = try await everything()
        await #expect(sourceLocation: sourceLocation) { try await client.performChanges(changes) } throws: { error in
            guard let error = (error as? PhotoLibraryError)?.varlinkError, error.name == "io.photolibd.Library." + name
            else { return false }
            if let index, error.parameters["index"] != .int(index) { return false }
            if let reason, error.parameters["reason"] != .string(reason) { return false }
            return true
        }
        #expect(try await self.token() == token, sourceLocation: sourceLocation)
        #expect(try await everything() == before, sourceLocation: sourceLocation)
    }
}
