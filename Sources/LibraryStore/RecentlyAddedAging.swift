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
