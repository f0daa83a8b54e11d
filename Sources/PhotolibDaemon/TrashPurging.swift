import Foundation
import LibraryStore
import Logging
import ServiceLifecycle

/// Empties Recently Deleted of what stayed there longer than the retention: at start and then every hour, each
/// purge one change event; the library's own files of purged assets are removed, referenced originals never.
struct TrashPurging: Service {
    static let interval: Duration = .seconds(3_600)

    let database: LibraryDatabase
    let importer: Importer
    let retentionDays: Int
    let logger: Logger

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let cutoff = Date().addingTimeInterval(-Double(retentionDays) * 86_400)
                do {
                    if let purge = try await database.purgeTrash(trashedBefore: cutoff) {
                        importer.removeFiles(purge.purgedFiles, logger: logger)
                        logger.info("purged expired trash", metadata: ["token": "\(purge.token)", "files": "\(purge.purgedFiles.count)"])
                    }
                } catch {
                    logger.error("could not purge expired trash", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: Self.interval)
            }
        }
    }
}
