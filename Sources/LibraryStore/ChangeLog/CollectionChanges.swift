import Foundation
import GRDB
import PhotoModel

/// The album and folder changes of a transaction: creation in a folder, deletion, album order, folder contents.
extension ChangeTransaction {
    /// Creates an album or folder, last in its parent folder when it has one.
    mutating func createCollection(_ subtype: CollectionSubtype, title: String, placeholder: String?,
                                   parent: String?, id chosen: String? = nil, index: Int) throws {
        try claim(placeholder, index: index)
        try claim(chosenId: chosen, index: index)
        let parentId = try parent.map { try resolveCollection($0, index: index, allowed: [.folder]) }
        let id = chosen ?? UUID().uuidString.lowercased()
        try db.execute(sql: """
            INSERT INTO collection (id, kind, subtype, title, parentId, position, createdTime) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [id, subtype.kind.rawValue, subtype.rawValue, title, parentId,
                             try nextChildPosition(in: parentId), now])
        if let placeholder { placeholders[placeholder] = id }
        note(.collection, id, .inserted)
    }

    /// Deletes albums and folders, each folder with everything in it; their assets stay in the library.
    mutating func deleteCollections(_ ids: [String], index: Int) throws {
        let targets = try ids.map { try resolveCollection($0, index: index, allowed: [.album, .folder]) }
        for target in targets {
            guard let parentId = try Row.fetchOne(db, sql: "SELECT parentId FROM collection WHERE id = ?",
                                                  arguments: [target]).map({ $0[0] as String? }) else { continue }
            for removed in try descendants(of: target) + [target] { note(.collection, removed, .removed) }
            if let parentId { note(.collection, parentId, .changed) }
            try db.execute(sql: "DELETE FROM collection WHERE id = ?", arguments: [target])
        }
    }

    // MARK: - Album order

    /// Adds assets at the end of an album; those already in it stay where they are. A hidden or trashed asset
    /// joins too, and shows where it was put once it is shown again.
    mutating func addAssets(_ ids: [String], to target: String, index: Int) throws {
        let album = try resolveCollection(target, index: index, allowed: [.album])
        let assetIds = try ids.map { try resolveAsset($0, index: index) }
        var position = try Int.fetchOne(db, sql: "SELECT coalesce(max(position), -1) FROM album_asset WHERE albumId = ?",
                                        arguments: [album])!
        for assetId in assetIds {
            position += 1
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO album_asset (albumId, assetId, position) VALUES (?, ?, ?)")
                .execute(arguments: [album, assetId, position])
        }
    }

    /// Inserts assets into an album so that each ends up at its index of the album's new order (PhotoKit's
    /// `insertAssets(_:at:)`: indexes of the result, applied in ascending order).
    mutating func insertAssets(_ ids: [String], at indexes: [Int], into target: String, index: Int) throws {
        let album = try resolveCollection(target, index: index, allowed: [.album])
        let assetIds = try ids.map { try resolveAsset($0, index: index) }
        guard Set(assetIds).count == assetIds.count else {
            throw LibraryError.invalidChange(index: index, reason: "an asset is listed twice")
        }
        guard Set(indexes).count == indexes.count else {
            throw LibraryError.invalidChange(index: index, reason: "an index is listed twice")
        }
        for assetId in assetIds where try Bool.fetchOne(db, sql: "SELECT 1 FROM album_asset WHERE albumId = ? AND assetId = ?",
                                                        arguments: [album, assetId]) != nil {
            throw LibraryError.invalidChange(index: index, reason: "asset '\(assetId)' is already in the album")
        }
        try reorderAlbum(album) { shown in
            var order = shown
            for (position, assetId) in zip(indexes, assetIds).sorted(by: { $0.0 < $1.0 }) {
                guard (0...order.count).contains(position) else {
                    throw LibraryError.invalidChange(index: index, reason: "index \(position) is out of range 0...\(order.count)")
                }
                order.insert(assetId, at: position)
            }
            return order
        }
    }

    /// Moves an album's assets at `indexes` so that they start at `toIndex` of the new order, keeping their order.
    mutating func moveAssets(at indexes: [Int], to toIndex: Int, in target: String, index: Int) throws {
        let album = try resolveCollection(target, index: index, allowed: [.album])
        try reorderAlbum(album) { shown in try Self.moving(shown, at: indexes, to: toIndex, index: index) }
    }

    /// Rewrites an album's positions. `reorder` maps the order a default fetch shows to the new one; members it
    /// does not show (hidden, trashed, other burst frames) stay just before the shown member they preceded.
    private func reorderAlbum(_ album: String, _ reorder: ([String]) throws -> [String]) throws {
        let members = try Row.fetchAll(db, sql: """
            SELECT album_asset.assetId, (\(AssetRules.visibility().joined(separator: " AND ")))
            FROM album_asset JOIN asset ON asset.id = album_asset.assetId WHERE album_asset.albumId = ?
            ORDER BY album_asset.position
            """, arguments: [album])
        var attached: [String: [String]] = [:]
        var shown: [String] = []
        var unattached: [String] = []
        for member in members {
            let assetId: String = member[0]
            if member[1] {
                attached[assetId] = unattached + [assetId]
                shown.append(assetId)
                unattached = []
            } else {
                unattached.append(assetId)
            }
        }
        let order = try reorder(shown).flatMap { attached[$0] ?? [$0] } + unattached
        for (position, assetId) in order.enumerated() {
            try db.cachedStatement(sql: """
                INSERT INTO album_asset (albumId, assetId, position) VALUES (?, ?, ?)
                ON CONFLICT (albumId, assetId) DO UPDATE SET position = excluded.position WHERE position != excluded.position
                """).execute(arguments: [album, assetId, position])
        }
    }

    // MARK: - Folder contents

    /// Puts albums and folders into a folder, at its end; a collection leaves the folder it was in.
    mutating func addChildCollections(_ ids: [String], to target: String, index: Int) throws {
        let folder = try resolveCollection(target, index: index, allowed: [.folder])
        let ancestors = Set(try self.ancestors(of: folder))
        for id in ids {
            let child = try resolveCollection(id, index: index, allowed: [.album, .folder])
            guard child != folder, !ancestors.contains(child) else {
                throw LibraryError.invalidChange(
                    index: index, reason: "'\(id)' cannot go into '\(target)': a folder cannot be inside itself")
            }
            let parentId = try String.fetchOne(db, sql: "SELECT parentId FROM collection WHERE id = ?", arguments: [child])
            guard parentId != folder else { continue }
            if let parentId { note(.collection, parentId, .changed) }
            try move(child, into: folder)
        }
    }

    /// Takes albums and folders out of a folder, to the top level.
    mutating func removeChildCollections(_ ids: [String], from target: String, index: Int) throws {
        let folder = try resolveCollection(target, index: index, allowed: [.folder])
        for id in ids {
            let child = try resolveCollection(id, index: index, allowed: [.album, .folder])
            guard try String.fetchOne(db, sql: "SELECT parentId FROM collection WHERE id = ?", arguments: [child]) == folder else {
                throw LibraryError.invalidChange(index: index, reason: "'\(id)' is not in folder '\(target)'")
            }
            note(.collection, folder, .changed)
            try move(child, into: nil)
        }
    }

    /// Moves a folder's children at `indexes` so that they start at `toIndex` of its new order.
    mutating func moveChildCollections(at indexes: [Int], to toIndex: Int, in target: String, index: Int) throws {
        let folder = try resolveCollection(target, index: index, allowed: [.folder])
        let children = try String.fetchAll(db, sql: """
            SELECT id FROM collection WHERE parentId = ? ORDER BY position, createdTime, id
            """, arguments: [folder])
        let order = try Self.moving(children, at: indexes, to: toIndex, index: index)
        for (position, child) in order.enumerated() {
            try db.execute(sql: "UPDATE collection SET position = ? WHERE id = ? AND position != ?",
                           arguments: [position, child, position])
        }
        note(.collection, folder, .changed)
    }

    private mutating func move(_ child: String, into folder: String?) throws {
        try db.execute(sql: "UPDATE collection SET parentId = ?, position = ? WHERE id = ?",
                       arguments: [folder, try nextChildPosition(in: folder), child])
        note(.collection, child, .changed)
    }

    /// The position after the last album or folder in `folder` (nil: the top level).
    private func nextChildPosition(in folder: String?) throws -> Int {
        try Int.fetchOne(db, sql: """
            SELECT coalesce(max(position), -1) + 1 FROM collection WHERE parentId IS ? AND kind IN ('album', 'folder')
            """, arguments: [folder])!
    }

    /// Every collection inside `folder`, at any depth.
    private func descendants(of folder: String) throws -> [String] {
        try String.fetchAll(db, sql: """
            WITH RECURSIVE inside(id) AS (
              SELECT id FROM collection WHERE parentId = ?
              UNION SELECT collection.id FROM collection JOIN inside ON collection.parentId = inside.id)
            SELECT id FROM inside
            """, arguments: [folder])
    }

    /// The folders that hold `collection`, nearest first.
    func ancestors(of collection: String) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: """
            WITH RECURSIVE holder(id, depth) AS (
              SELECT parentId, 1 FROM collection WHERE id = ? AND parentId IS NOT NULL
              UNION SELECT collection.parentId, holder.depth + 1 FROM collection JOIN holder ON collection.id = holder.id
                WHERE collection.parentId IS NOT NULL)
            SELECT id FROM holder ORDER BY depth
            """), arguments: [collection])
    }

    /// `items` with those at `indexes` moved to start at `toIndex` of the result, in their order
    /// (NSMutableOrderedSet's `moveObjects(at:to:)`).
    private static func moving(_ items: [String], at indexes: [Int], to toIndex: Int, index: Int) throws -> [String] {
        guard Set(indexes).count == indexes.count else {
            throw LibraryError.invalidChange(index: index, reason: "an index is listed twice")
        }
        for position in indexes where !items.indices.contains(position) {
            throw LibraryError.invalidChange(index: index, reason: "index \(position) is out of range 0..<\(items.count)")
        }
        let moved = Set(indexes)
        var rest = items.indices.filter { !moved.contains($0) }.map { items[$0] }
        guard (0...rest.count).contains(toIndex) else {
            throw LibraryError.invalidChange(index: index, reason: "toIndex \(toIndex) is out of range 0...\(rest.count)")
        }
        rest.insert(contentsOf: indexes.sorted().map { items[$0] }, at: toIndex)
        return rest
    }
}
