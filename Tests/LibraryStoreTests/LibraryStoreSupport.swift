import Foundation
import PhotoModel
@testable import LibraryStore

/// The test process's directory for the databases of `makeDatabase`, removed when the process exits
/// (the databases stay open until then).
private enum ScratchDirectory {
    static let root: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("photolibd-store-\(UUID().uuidString)").path
        atexit { try? FileManager.default.removeItem(atPath: ScratchDirectory.root) }
        return path
    }()
}

/// A library database in a fresh temporary directory.
func makeDatabase() throws -> (LibraryDatabase, path: String) {
    let directory = ScratchDirectory.root + "/" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/library.sqlite"
    return (try LibraryDatabase(path: path), path)
}

/// A draft of a still photo whose content hash is derived from `name`.
func draft(_ name: String, created: String? = "2024-01-31T10:15:00+01:00", width: Int = 4000, height: Int = 3000) -> AssetDraft {
    AssetDraft(mediaType: .image, pixelWidth: width, pixelHeight: height, orientation: 1,
               creationDate: created.flatMap(Timestamp.init(rfc3339:)), creationDateSource: .exif, location: nil,
               contentHash: "hash-\(name)",
               resources: [DraftResource(type: .photo, originalFilename: name, mimeType: "image/jpeg", fileSize: 100,
                                         path: "/store/\(name)", isOwnedByLibrary: true)])
}

extension LibraryDatabase {
    /// Inserts assets from drafts, one transaction, returning their ids in order.
    func insert(_ drafts: [AssetDraft]) async throws -> [String] {
        let changes = drafts.indices.map { LibraryChange.createAsset(AssetCreation(path: "/in/\($0)", placeholder: "@\($0)")) }
        let outcome = try await performChanges(changes, drafts: Dictionary(uniqueKeysWithValues: drafts.enumerated().map { ($0, $1) }))
        return drafts.indices.map { outcome.created["@\($0)"]! }
    }
}
