import Foundation
import LibraryStore
import Logging
import PhotoModel
import ServiceLifecycle

/// Upkeep of the library that runs at start and then after every pause until shutdown. A round that fails is
/// logged, and the next round tries again.
package struct LibraryUpkeep: NamedService {
    /// What a round does, for the log: "could not <task>".
    let task: String
    package var description: String { "LibraryUpkeep(\(task))" }
    let logger: Logger
    /// The pause after a round, from the time it ended.
    let pause: @Sendable (Date) -> Duration
    let round: @Sendable () async throws -> Void

    package func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await round()
                } catch  where Task.isCancelled {
                    // Shutdown stopped the round: nothing went wrong.
                } catch {
                    logger.error("could not \(task)", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: pause(Date()))
            }
        }
    }
}

extension LibraryUpkeep {
    static let hourly: @Sendable (Date) -> Duration = { _ in .seconds(3_600) }

    /// The moment before which something kept for `retentionDays` has expired.
    static func cutoff(retentionDays: Int) -> Date { Date().addingTimeInterval(-Double(retentionDays) * 86_400) }

    /// Keeps the change history to its retention.
    package static func historyPruning(
        database: LibraryDatabase, retentionDays: @escaping @Sendable () -> Int,
        logger: Logger
    ) -> LibraryUpkeep {
        LibraryUpkeep(task: "prune change history", logger: logger, pause: hourly) {
            let pruned = try await database.history.pruneHistory(
                committedBefore: cutoff(retentionDays: retentionDays()))
            if pruned > 0 { logger.info("pruned change history", metadata: ["entries": "\(pruned)"]) }
        }
    }

    /// Empties Recently Deleted of what stayed there longer than the retention, each purge one change event; the
    /// library's own files of purged assets are removed, referenced originals never.
    package static func trashPurging(
        database: LibraryDatabase, retentionDays: @escaping @Sendable () -> Int,
        logger: Logger
    ) -> LibraryUpkeep {
        LibraryUpkeep(task: "purge expired trash", logger: logger, pause: hourly) {
            if let purge = try await database.purgeTrash(trashedBefore: cutoff(retentionDays: retentionDays())) {
                await StoreFileRemoval(database: database).remove(purge.purgedFiles, logger: logger)
                logger.info(
                    "purged expired trash",
                    metadata: ["token": "\(purge.token)", "files": "\(purge.purgedFiles.count)"])
            }
        }
    }

    /// Announces the additions that leave Recently Added as the date moves on: at start (for days that passed
    /// while the daemon was down), a second after each UTC midnight, and at least hourly in case the clock jumped.
    package static func recentlyAddedAging(database: LibraryDatabase, logger: Logger) -> LibraryUpkeep {
        LibraryUpkeep(
            task: "update Recently Added", logger: logger,
            pause: { now in
                let untilMidnight = 86_400 - now.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400)
                return .seconds(min(untilMidnight + 1, 3_600))
            }
        ) {
            if let token = try await database.ageRecentlyAdded(now: Date()) {
                logger.info("assets left Recently Added", metadata: ["token": "\(token)"])
            }
        }
    }

    /// Reads the camera data of assets imported before the library kept it, a batch per transaction, each asset
    /// that gains any announced as changed; nothing is imported again.
    package static func cameraDataBackfill(database: LibraryDatabase, describer: FileDescriber, logger: Logger)
        -> LibraryUpkeep
    {
        LibraryUpkeep(task: "read camera data of earlier imports", logger: logger, pause: hourly) {
            var read = 0
            while case let batch = try await database.cameraData.assetsAwaitingCameraData(limit: 200), !batch.isEmpty {
                var readings: [String: CameraData?] = [:]
                for asset in batch { readings[asset.id] = await describer.cameraData(of: asset) }
                try await database.cameraData.recordCameraData(readings)
                read += batch.count
            }
            if read > 0 { logger.info("read camera data of earlier imports", metadata: ["assets": "\(read)"]) }
        }
    }
}
