import Foundation
import GRDB
import PhotoModel

extension Schema {
    /// The first day of Recently Added that the change log last reflected, so that the additions of a day that
    /// leaves the album are announced once, also when that happened while the daemon was down.
    static func registerRecentlyAddedAging(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v4-recently-added-aging") { db in
            try db.execute(sql: "ALTER TABLE library_info ADD COLUMN recentlyAddedFirstDay INTEGER")
        }
    }
}

extension LibraryDatabase {
    /// Records, as a change of the Recently Added smart album, that the assets added on days before the album's
    /// window at `now` have left it. Membership there changes with the date alone, so without this entry no
    /// observer or catching-up client would learn of it. Returns nil when no shown asset left.
    public func ageRecentlyAdded(now: Date) async throws -> ChangeToken? {
        let firstDay = AssetRules.firstRecentDay(now: now)
        return try await writer.recordChange(now: now) { transaction in
            let db = transaction.db
            let announced = try Int.fetchOne(db, sql: "SELECT recentlyAddedFirstDay FROM library_info")
            guard announced != firstDay else { return }
            try db.execute(sql: "UPDATE library_info SET recentlyAddedFirstDay = ?", arguments: [firstDay])
            // A new library, or a clock set back: nothing has left that observers were told was in.
            guard let announced, announced < firstDay else { return }
            let leaving = "SELECT EXISTS (SELECT 1 FROM asset WHERE addedDay >= ? AND addedDay < ? AND "
                + AssetRules.visibility().joined(separator: " AND ") + ")"
            guard try Bool.fetchOne(db, sql: leaving, arguments: [announced, firstDay]) == true else { return }
            let album = try String.fetchOne(db, sql: "SELECT id FROM collection WHERE subtype = ?",
                                            arguments: [CollectionSubtype.smartAlbumRecentlyAdded.rawValue])!
            transaction.note(.collection, album, .changed)
        }.committed.map { ChangeToken(libraryId: libraryId, generation: $0.generation) }
    }
}
