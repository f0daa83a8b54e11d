import GRDB
import PhotoModel

/// A `resource_file` row, with its resource's ownership and its asset's trash state: what the import sources'
/// reconciler compares each folder's files with, read by the thousand at every start.
struct KnownFileRecord: FetchableRecord {
    /// The columns read, in the order selected.
    enum Column: Int, PositionedColumn {
        case assetId, type, sourcePath, device, inode, size, modificationTime, isOwnedByLibrary, isTrashed, isOffline

        var expression: String {
            switch self {
            case .isOwnedByLibrary: "r.isOwnedByLibrary"
            case .isTrashed: "a.trashedTime IS NOT NULL"
            default: "rf.\(self)"
            }
        }
    }

    static let select = """
        SELECT \(Column.selection)
        FROM resource_file rf JOIN resource r ON r.assetId = rf.assetId AND r.type = rf.type
        JOIN asset a ON a.id = rf.assetId
        """

    let file: KnownFile

    init(row: Row) {
        let device: Int64 = row[Column.device], inode: Int64 = row[Column.inode]
        file = KnownFile(
            assetId: row[Column.assetId], resourceType: ResourceType(rawValue: row[Column.type]) ?? .photo,
            sourcePath: row[Column.sourcePath],
            identity: FileIdentity(device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode),
                                   size: row[Column.size], modificationTime: row[Column.modificationTime]),
            isOwnedByLibrary: row[Column.isOwnedByLibrary], isTrashed: row[Column.isTrashed], isOffline: row[Column.isOffline])
    }

    /// The files referenced in place at `path` or anywhere under it.
    static func referenced(under path: String, db: Database) throws -> [KnownFile] {
        try fetchAll(db, sql: select + """
             WHERE r.isOwnedByLibrary = 0 AND (rf.sourcePath = ? OR (rf.sourcePath >= ? AND rf.sourcePath < ?))
            """, arguments: [path, path + "/", path + "0"]).map(\.file)
    }
}
