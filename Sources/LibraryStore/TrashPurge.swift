import Foundation
import GRDB
import PhotoModel

extension LibraryDatabase {
    /// Deletes for good, as one change event, the assets trashed before `cutoff`; nil when none had expired.
    /// The outcome's `purgedFiles` are the library's own files of those assets, for the caller to remove.
    public func purgeTrash(trashedBefore cutoff: Date) async throws -> ChangeOutcome? {
        let expired = "SELECT id FROM asset WHERE trashedTime < ? ORDER BY trashedTime"
        let cutoffTime = cutoff.timeIntervalSince1970
        guard try await writer.read({ db in
            try String.fetchOne(db, sql: expired + " LIMIT 1", arguments: [cutoffTime]) != nil
        }) else { return nil }
        return try await commitTransaction { transaction in
            for id in try String.fetchAll(transaction.db, sql: expired, arguments: [cutoffTime]) {
                try transaction.purgeAsset(id)
            }
        }
    }
}
