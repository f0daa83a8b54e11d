import Foundation
import GRDB
import PhotoModel

/// The change log kept for change tokens: what committed after a generation, how far back it goes, and its pruning.
public struct ChangeHistory: Sendable {
    let writer: LibraryWriter

    /// Committed changes after `generation`, oldest first, at most `limit`, read from the change log.
    public func committedChanges(after generation: Int64, limit: Int) async throws -> [CommittedChange] {
        try await writer.read { db in
            let generations = try Int64.fetchAll(
                db,
                sql: """
                    SELECT generation FROM change_log WHERE generation > ? ORDER BY generation LIMIT ?
                    """, arguments: [generation, limit])
            guard let last = generations.last else { return [] }
            var objects: [Int64: [ObjectChange]] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT generation, objectKind, objectId, change, contentChanged FROM change_log_object
                    WHERE generation > ? AND generation <= ? ORDER BY generation
                    """, arguments: [generation, last])
            while let row = try rows.next() {
                guard let kind = ObjectKind(rawValue: row[1]), let change = ObjectChangeKind(rawValue: row[3]) else {
                    continue
                }
                objects[row[0], default: []].append(
                    ObjectChange(id: row[2], kind: kind, change: change, contentChanged: row[4]))
            }
            return generations.map { CommittedChange(generation: $0, objects: objects[$0] ?? []) }
        }
    }

    /// The oldest generation the change log can still replay from.
    public func oldestReplayableGeneration() async throws -> Int64 {
        try await writer.read { db in
            if let oldest = try Int64.fetchOne(db, sql: "SELECT min(generation) FROM change_log") { return oldest - 1 }
            return try Int64.fetchOne(db, sql: "SELECT generation FROM library_info")!
        }
    }

    /// Deletes change-log entries committed before `cutoff`; tokens older than what remains become expired.
    /// Returns how many entries were deleted.
    @discardableResult
    public func pruneHistory(committedBefore cutoff: Date) async throws -> Int {
        try await writer.writeUnrecorded { db in
            try db.execute(
                sql: "DELETE FROM change_log WHERE committedTime < ?", arguments: [cutoff.timeIntervalSince1970])
            return db.changesCount
        }
    }
}
