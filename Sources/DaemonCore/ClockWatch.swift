import Foundation
import LibraryStore
import Logging
import Synchronization

extension LibraryUpkeep {
    /// Notices the wall clock jumping (set back by hand, corrected after a dead clock battery), measured against the
    /// monotonic clock, says so once per jump, and brings Recently Added to the new date at once. Nothing else needs
    /// the wall clock to go forward: change tokens count commits, and every pause is on the monotonic clock.
    package static func clockWatch(database: LibraryDatabase, logger: Logger) -> LibraryUpkeep {
        let last = ClockReading()
        return LibraryUpkeep(task: "follow the clock", logger: logger, pause: { _ in .seconds(5) }) {
            let drift = last.driftSinceLastReading()
            guard abs(drift) >= 2 else { return }
            let direction = drift < 0 ? "back" : "forward", seconds = Int(abs(drift).rounded())
            logger.warning(
                "The clock jumped \(direction) by \(seconds) s; new changes are dated by the new time, nothing is lost")
            if let token = try await database.ageRecentlyAdded(now: Date()) {
                logger.info("assets left Recently Added", metadata: ["token": "\(token)"])
            }
        }
    }
}

/// The wall and monotonic clocks as last read.
private final class ClockReading: Sendable {
    private let reading = Mutex((wall: Date(), steady: ContinuousClock.now))

    /// How far the wall clock moved beyond (or, negative, short of) the time that passed since the last reading.
    func driftSinceLastReading() -> Double {
        let now = (wall: Date(), steady: ContinuousClock.now)
        let previous = reading.withLock { reading in
            defer { reading = now }
            return reading
        }
        return now.wall.timeIntervalSince(previous.wall) - previous.steady.duration(to: now.steady).seconds
    }
}
