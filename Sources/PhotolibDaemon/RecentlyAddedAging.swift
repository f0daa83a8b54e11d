import Foundation
import LibraryStore
import Logging
import ServiceLifecycle

/// Announces the additions that leave Recently Added as the date moves on: at start (for days that passed
/// while the daemon was down), just after each UTC midnight, and at least hourly in case the clock jumped.
struct RecentlyAddedAging: Service {
    let database: LibraryDatabase
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    if let token = try await database.ageRecentlyAdded(now: Date()) {
                        logger.info("assets left Recently Added", metadata: ["token": "\(token)"])
                    }
                } catch {
                    logger.error("could not update Recently Added", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: Self.delay(after: Date()))
            }
        }
    }

    /// A second past the next UTC midnight, or an hour, whichever comes first.
    static func delay(after now: Date) -> Duration {
        let untilMidnight = 86_400 - now.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400)
        return .seconds(min(untilMidnight + 1, 3_600))
    }
}
