import Foundation
import LibraryStore
import PhotoModel

/// A library built through the store, with assets of every kind the smart albums hold (videos, screenshots, Live
/// Photos, panoramas by shape and by subtype, a three-frame burst, RAW pairs, a favorite, a hidden and a trashed
/// asset), in several local days and time zones; its files do not exist.
public enum ModelLibrarySeed {
    /// Each asset's name, creation date and what sets it apart.
    public static let assets: [(name: String, created: String?, configure: @Sendable (inout AssetDraft) -> Void)] = [
        ("plain", "2024-01-02T10:00:00+01:00", { _ in }),
        ("undated", nil, { _ in }),
        (
            "video", "2024-03-01T12:00:00Z",
            {
                $0.mediaType = .video; $0.duration = 12.5
            }
        ),
        ("screenshot", "2023-12-31T23:00:00-05:00", { $0.mediaSubtypes = .photoScreenshot }),
        ("live", "2024-03-01T08:00:00Z", { $0.mediaSubtypes = .photoLive }),
        (
            "panorama", "2024-03-02T12:00:00Z",
            {
                $0.pixelWidth = 9000; $0.pixelHeight = 3000
            }
        ),
        ("taggedPanorama", "2024-03-02T13:00:00Z", { $0.mediaSubtypes = .photoPanorama }),
        (
            "raw", "2024-03-03T12:00:00Z",
            {
                $0.resources.append(
                    DraftResource(
                        type: .alternatePhoto, originalFilename: "raw.CR3", mimeType: "image/x-canon-cr3",
                        fileSize: 20, path: "/nonexistent/raw.CR3", isOwnedByLibrary: false))
            }
        ),
        ("burst1", "2024-03-04T12:00:01Z", { $0.burstIdentifier = "burst" }),
        ("burst2", "2024-03-04T12:00:02Z", { $0.burstIdentifier = "burst" }),
        ("burst3", "2024-03-04T12:00:03Z", { $0.burstIdentifier = "burst" }),
        ("favorite", "2024-05-05T05:05:05+05:00", { _ in }),
        ("hidden", "2024-05-06T12:00:00Z", { _ in }),
        ("trashed", "2024-05-07T12:00:00Z", { _ in }),
    ]

    /// Writes the model library into a new database at `path`, marks the favorite, hides and trashes; returns the
    /// assets' ids by name.
    public static func write(toDatabaseAt path: String) async throws -> [String: String] {
        let database = try LibraryDatabase(path: path)
        var drafts: [Int: AssetDraft] = [:]
        for (index, asset) in assets.enumerated() {
            var draft = AssetDraft(
                mediaType: .image, pixelWidth: 4000, pixelHeight: 3000, orientation: 1,
                creationDate: asset.created.flatMap(Timestamp.init(rfc3339:)), creationDateSource: .exif, location: nil,
                contentHash: "model-\(asset.name)",
                resources: [
                    DraftResource(
                        type: .photo, originalFilename: asset.name + ".jpg", mimeType: "image/jpeg",
                        fileSize: Int64(100 * (index + 1)), path: "/nonexistent/\(asset.name).jpg",
                        isOwnedByLibrary: false)
                ])
            asset.configure(&draft)
            drafts[index] = draft
        }
        let created = try await database.performChanges(
            assets.map {
                LibraryChange.createAsset(
                    AssetCreation(path: "/nonexistent/\($0.name).jpg", placeholder: "@" + $0.name))
            } + [
                .updateAsset(target: "@favorite", AssetUpdate(isFavorite: true)),
                .updateAsset(target: "@hidden", AssetUpdate(isHidden: true)),
                .deleteAssets(ids: ["@trashed"], permanently: false),
            ], drafts: drafts
        ).created
        return Dictionary(uniqueKeysWithValues: assets.map { ($0.name, created["@" + $0.name]!) })
    }
}
