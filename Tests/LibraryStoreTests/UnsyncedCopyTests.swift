import Foundation
import PhotoModel
import Testing

@testable import LibraryStore

/// An import committed before its store copy is synced: remembered in its own transaction, forgotten once synced,
/// and its unsynced commit leaves every later write synced.
struct UnsyncedCopyTests {
    private func request(_ name: String, defersSync: Bool) -> IngestRequest {
        let asset = draft(name)
        let file = SourceFile(
            contentHash: asset.contentHash, sourceRoot: "/drop", sourcePath: "/drop/\(name)",
            groupKey: "/drop/\(name)", role: .still,
            identity: FileIdentity(device: 1, inode: UInt64(name.hashValue.magnitude), size: 100, modificationTime: 0))
        return IngestRequest(draft: asset, file: file, isReference: false, defersSync: defersSync)
    }

    private func synchronousSetting(of database: LibraryDatabase) async throws -> Int {
        try await database.writer.writeUnrecorded { db in try Int.fetchOne(db, sql: "PRAGMA synchronous")! }
    }

    @Test func aCopyCommittedUnsyncedIsRememberedUntilItsSyncIsConfirmed() async throws {
        let (database, _) = try makeDatabase()
        let outcome = try await database.ingest(request("a.jpg", defersSync: true), fileExists: { _ in true })
        #expect(outcome.usesFile)
        #expect(
            try await database.unsyncedCopies.all() == [
                UnsyncedCopy(
                    storedPath: "/store/a.jpg", contentHash: "hash-a.jpg",
                    sourcePath: "/drop/a.jpg")
            ])
        // A duplicate's copy is dropped, not used: nothing to remember. A synced commit remembers nothing either.
        let duplicate = try await database.ingest(request("a.jpg", defersSync: true), fileExists: { _ in true })
        #expect(!duplicate.usesFile)
        _ = try await database.ingest(request("b.jpg", defersSync: false), fileExists: { _ in true })
        #expect(try await database.unsyncedCopies.all().map(\.storedPath) == ["/store/a.jpg"])

        try await database.unsyncedCopies.forgetSynced(["/store/a.jpg"])
        #expect(try await database.unsyncedCopies.all().isEmpty)
        #expect(try await database.fetchAssets(AssetQuery()).count == 2)
    }

    @Test func onlyTheDeferredCommitIsLeftUnsynced() async throws {
        let (database, _) = try makeDatabase()
        let full = 2
        #expect(try await synchronousSetting(of: database) == full)
        _ = try await database.ingest(request("a.jpg", defersSync: true), fileExists: { _ in true })
        #expect(try await synchronousSetting(of: database) == full)
        // Also when the deferred transaction fails.
        var failing = request("b.jpg", defersSync: true)
        failing.album = "no-such-album"
        await #expect(throws: (any Error).self) {
            try await database.ingest(failing, fileExists: { _ in true })
        }
        #expect(try await synchronousSetting(of: database) == full)
        #expect(try await database.unsyncedCopies.all().map(\.storedPath) == ["/store/a.jpg"])
    }
}
