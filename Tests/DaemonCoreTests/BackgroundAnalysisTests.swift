import Foundation
import LibraryStore
import Logging
import PhotoModel
import PhotolibProtocol
import TestSupport
import Testing

@testable import DaemonCore

/// The core's background analysis, in process: the places backfill on a library of the store (no daemon, no socket).
struct BackgroundAnalysisTests {
    /// A library whose `positions` are located assets written without places, as a library from before them.
    private static func libraryFromBeforePlaces(
        _ positions: [(Double, Double)], in directory: TemporaryDirectory
    ) async throws -> LibraryDatabase {
        let database = try LibraryDatabase(path: directory.file("library.sqlite"))
        var drafts: [Int: AssetDraft] = [:]
        var changes: [LibraryChange] = []
        for (index, position) in positions.enumerated() {
            let path = "/photos/\(index).jpg"
            drafts[index] = AssetDraft(
                mediaType: .image, pixelWidth: 40, pixelHeight: 30, orientation: 1, creationDate: nil,
                creationDateSource: nil, location: Location(latitude: position.0, longitude: position.1),
                contentHash: "hash-\(index)",
                resources: [
                    DraftResource(
                        type: .photo, originalFilename: "\(index).jpg", mimeType: "image/jpeg", fileSize: 1, path: path,
                        isOwnedByLibrary: false)
                ])
            changes.append(.createAsset(AssetCreation(path: path, placeholder: nil)))
        }
        _ = try await database.performChanges(changes, drafts: drafts)
        return database
    }

    private static var placeTable: PlaceNames {
        PlaceNames(environment: ProcessInfo.processInfo.environment, logger: CoreUnderTest.logger)
    }

    @Test func theBackfillNamesEveryWaitingAssetInBatchesAndReportsItsProgress() async throws {
        let directory = try TemporaryDirectory()
        let positions = (0..<2_500).map { index in (48.85 + Double(index % 50) * 0.0001, 2.29) } + [(40.0, -40.0)]
        let database = try await Self.libraryFromBeforePlaces(positions, in: directory)
        #expect(try await database.places.countAssetsAwaitingPlaces() == positions.count)
        let analysis = PlacesAnalysis(database: database, places: Self.placeTable, logger: CoreUnderTest.logger)
        var batches: [Int] = []
        while case let analysed = try await analysis.analyseNextBatch(), analysed > 0 { batches.append(analysed) }
        #expect(batches == [2_000, 501])
        let progress = try await analysis.progress()
        #expect(progress == AnalysisProgress(done: positions.count, total: positions.count))
        let assets = try await database.fetchAssets(AssetQuery(), pageSize: 3_000).assets
        #expect(assets.filter { $0.place?.city == "Paris" }.count == 2_500)
        #expect(assets.filter { $0.place == nil }.count == 1)
    }

    @Test func theAnalysisWaitsWhileFilesAreImportedAndSaysWhyPlacesCannotBeNamed() async throws {
        let directory = try TemporaryDirectory()
        let database = try await Self.libraryFromBeforePlaces([(47.3769, 8.5417)], in: directory)
        let statistics = ImportStatistics()
        statistics.update { $0.queued = 1 }
        let analysis = BackgroundAnalysis(
            steps: [PlacesAnalysis(database: database, places: Self.placeTable, logger: CoreUnderTest.logger)],
            statistics: statistics, wakeUp: AnalysisWakeUp(), logger: CoreUnderTest.logger, idlePause: .milliseconds(20)
        )
        let running = Task { await analysis.run() }
        let reported = try await eventually { statistics.snapshot.analysis?.places }
        #expect(reported == AnalysisProgress(done: 0, total: 1))
        #expect(try await database.places.countAssetsAwaitingPlaces() == 1)

        statistics.update { $0.queued = 0 }
        let named = try await eventually { statistics.snapshot.analysis?.places?.done == 1 }
        #expect(named)
        running.cancel()
        await running.value

        let broken = directory.file("broken.sqlite")
        try Data("not a table".utf8).write(to: URL(fileURLWithPath: broken))
        let unusable = PlaceNames(tablePath: broken, logger: CoreUnderTest.logger)
        let waiting = try await Self.libraryFromBeforePlaces([(47.3769, 8.5417)], in: try TemporaryDirectory())
        let step = PlacesAnalysis(database: waiting, places: unusable, logger: CoreUnderTest.logger)
        #expect(try await step.analyseNextBatch() == 0)
        let progress = try await step.progress()
        #expect(progress.total == 1 && progress.done == 0)
        #expect(progress.problem?.contains(broken) == true)
    }
}
