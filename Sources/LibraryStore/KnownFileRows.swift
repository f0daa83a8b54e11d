import GRDB
import PhotoModel

/// Reads `resource_file` rows as `KnownFile`s.
enum KnownFileRows {
    static let select = """
        SELECT rf.assetId, rf.type, rf.sourcePath, rf.device, rf.inode, rf.size, rf.modificationTime,
          r.isOwnedByLibrary, a.trashedTime IS NOT NULL, rf.isOffline
        FROM resource_file rf JOIN resource r ON r.assetId = rf.assetId AND r.type = rf.type
        JOIN asset a ON a.id = rf.assetId
        """

    static func knownFile(from row: Row) -> KnownFile {
        let device: Int64 = row[3], inode: Int64 = row[4]
        return KnownFile(
            assetId: row[0], resourceType: ResourceType(rawValue: row[1]) ?? .photo, sourcePath: row[2],
            identity: FileIdentity(device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode),
                                   size: row[5], modificationTime: row[6]),
            isOwnedByLibrary: row[7], isTrashed: row[8], isOffline: row[9])
    }

    /// The files referenced in place at `path` or anywhere under it.
    static func referenced(under path: String, db: Database) throws -> [KnownFile] {
        try Row.fetchAll(db, sql: select + """
             WHERE r.isOwnedByLibrary = 0 AND (rf.sourcePath = ? OR (rf.sourcePath >= ? AND rf.sourcePath < ?))
            """, arguments: [path, path + "/", path + "0"]).map(knownFile(from:))
    }
}
