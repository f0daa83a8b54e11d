import Foundation
import LibraryStore
import Logging
import ServiceLifecycle

/// Keeps the change history to its retention: prunes at start and then every hour.
struct HistoryPruning: Service {
    static let interval: Duration = .seconds(3_600)

    let database: LibraryDatabase
    let retentionDays: Int
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let cutoff = Date().addingTimeInterval(-Double(retentionDays) * 86_400)
                do {
                    let pruned = try await database.pruneHistory(committedBefore: cutoff)
                    if pruned > 0 { logger.info("pruned change history", metadata: ["entries": "\(pruned)"]) }
                } catch {
                    logger.error("could not prune change history", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: Self.interval)
            }
        }
    }
}
