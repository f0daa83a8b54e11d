import LibraryStore
import Logging
import NIOPosix
import PhotolibProtocol
import Synchronization

/// Names the places of located assets the library holds from before places (or from while the place table was
/// missing): the backfill after an upgrade. New locations are named as they are written.
package final class PlacesAnalysis: AnalysisStep {
    /// Lookups per transaction: a few milliseconds of geocoding, one commit and its change events.
    static let batchSize = 2_000

    private let database: LibraryDatabase
    private let places: PlaceNames
    private let logger: Logger
    private let analysed = Atomic<Int>(0)

    package init(database: LibraryDatabase, places: PlaceNames, logger: Logger) {
        self.database = database
        self.places = places
        self.logger = logger
    }

    package func analyseNextBatch() async throws -> Int {
        let batch = try await database.places.assetsAwaitingPlaces(limit: Self.batchSize)
        // The first call reads the table: on the thread pool, not on a thread the daemon's async work shares.
        guard !batch.isEmpty, let geocoder = try await NIOThreadPool.singleton.runIfActive({ self.places.geocoder() })
        else { return 0 }
        let lookups = batch.map { asset in
            (
                asset: asset,
                place: geocoder.place(latitude: asset.location.latitude, longitude: asset.location.longitude)
            )
        }
        try await database.places.recordPlaces(lookups)
        let total = analysed.wrappingAdd(batch.count, ordering: .relaxed).newValue
        if total % (Self.batchSize * 100) == 0 || batch.count < Self.batchSize {
            logger.info("named the places of earlier imports", metadata: ["assets": "\(total)"])
        }
        return batch.count
    }

    /// Of the assets that waited since the daemon started, how many were named.
    package func progress() async throws -> AnalysisProgress {
        let done = analysed.load(ordering: .relaxed)
        let waiting = try await database.places.countAssetsAwaitingPlaces()
        return AnalysisProgress(done: done, total: done + waiting, problem: places.problem)
    }

    package func report(_ progress: AnalysisProgress, in status: inout AnalysisStatus) {
        status.places = progress
    }
}
