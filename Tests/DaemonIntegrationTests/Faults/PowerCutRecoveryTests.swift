import Foundation
import Glibc
import LibraryStore
import PhotoModel
import Testing
import TestSupport

/// States a power cut leaves that scripts/crash-test found the daemon could not clean up, made by hand here.
@Suite(.serialized)
struct PowerCutRecoveryTests {
    /// A copy linked into the store whose import never committed: its record (`incoming/ID.target`) names it, and a
    /// record that is a symbolic link reaches the disk with its name, so the next start finds the copy and drops it.
    @Test func aStoredCopyWhoseImportACutStoppedIsDroppedAtTheNextStart() async throws {
        let daemon = try DaemonProcess()
        let incoming = daemon.libraryPath + "/incoming", folder = daemon.libraryPath + "/originals/2021/06"
        for path in [incoming, folder] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        let temporary = incoming + "/0C0FFEE0-0000-4000-8000-000000000001.importing"
        let stored = folder + "/beach.jpg"
        try MediaFixtures.jpegVariant(3).write(to: URL(fileURLWithPath: temporary))
        #expect(link(temporary, stored) == 0)
        #expect(symlink(stored, incoming + "/0C0FFEE0-0000-4000-8000-000000000001.target") == 0)

        try await daemon.start()
        #expect(!FileManager.default.fileExists(atPath: stored), "the copy no asset uses is gone")
        #expect(filesUnder(incoming).isEmpty)
        try await daemon.stop()
    }

    /// A purge committed, and the power went before its files were removed: the commit listed them, and the next
    /// start removes them (a file a newer asset took since stays).
    @Test func filesAPurgeStoppedUsingAreRemovedAtTheNextStartWhenTheCutCameFirst() async throws {
        let daemon = try DaemonProcess()
        let folder = daemon.libraryPath + "/originals/2021/06"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let purged = folder + "/purged.jpg", kept = folder + "/kept.jpg"
        for (index, path) in [purged, kept].enumerated() {
            try MediaFixtures.jpegVariant(index).write(to: URL(fileURLWithPath: path))
        }
        do {
            let database = try LibraryDatabase(path: daemon.libraryPath + "/library.sqlite")
            let drafts = [purged, kept].enumerated().map { index, path in
                AssetDraft(mediaType: .image, pixelWidth: 64, pixelHeight: 48, orientation: 1, creationDate: nil,
                           creationDateSource: .fileModification, location: nil, contentHash: "hash-\(index)",
                           resources: [DraftResource(type: .photo, originalFilename: "photo.jpg", mimeType: "image/jpeg",
                                                     fileSize: 100, path: path, isOwnedByLibrary: true)])
            }
            let created = try await database.performChanges(
                [.createAsset(AssetCreation(path: purged, placeholder: "@0")), .createAsset(AssetCreation(path: kept, placeholder: "@1"))],
                drafts: [0: drafts[0], 1: drafts[1]]).created
            let outcome = try await database.performChanges([.deleteAssets(ids: [created["@0"]!], permanently: true)])
            #expect(outcome.purgedFiles == [purged])
        }

        try await daemon.start()
        #expect(!FileManager.default.fileExists(atPath: purged))
        #expect(FileManager.default.fileExists(atPath: kept))
        #expect(daemon.log().contains("removed files a crash left"))
        try await daemon.stop()
    }
}
