import Foundation
import Imaging
import LibraryStore
import Logging
import PhotoModel
import PhotolibConfig
import PhotolibProtocol
import TestSupport
import Testing

@testable import DaemonCore

/// The daemon's core opened on a folder and called in-process, as each varlink method calls it: imports, change
/// lists, the change log, image requests and reconfiguration, with no process and no socket.
struct LibraryCoreTests {
    /// The test itself, as a client calling with the files it can read.
    private static let caller = Caller(pid: getpid(), uid: getuid(), gid: getgid())

    /// The files (not folders) below `folder`.
    private static func files(under folder: String) throws -> Set<String> {
        Set(
            try FileManager.default.subpathsOfDirectory(atPath: folder).filter { path in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder)
                    && !isFolder.boolValue
            })
    }

    @Test func importedFilesBecomeAssetsEachInTheChangeLogAndACopyIsADuplicate() async throws {
        let directory = try TemporaryDirectory()
        let core = try await CoreUnderTest.open(in: directory)
        let first = try ImageFixtures.image(at: directory.file("first.jpg"), width: 120, height: 80)
        let second = try ImageFixtures.image(at: directory.file("second.jpg"), width: 80, height: 120)
        let copy = directory.file("copy.jpg")
        try FileManager.default.copyItem(atPath: first, toPath: copy)
        let before = core.database.feed.generation

        let imported = try await core.imports.importFiles(
            [first, second, copy], mode: .copy, album: nil, caller: Self.caller, logger: CoreUnderTest.logger,
            progress: { _ in }
        )

        #expect(imported.map(\.status) == [.imported, .imported, .duplicate])
        #expect(imported[2].assetId == imported[0].assetId)
        let assets = try await core.database.fetchAssets(AssetQuery(), pageSize: 10).assets
        #expect(Set(assets.map(\.id)) == Set(imported.prefix(2).compactMap(\.assetId)))
        let logged = try await core.database.history.committedChanges(after: before, limit: 10)
        let inserted = logged.flatMap(\.objects).filter { $0.kind == .asset && $0.change == .inserted }.map(\.id)
        #expect(Set(inserted) == Set(assets.map(\.id)))
        await core.close()
    }

    @Test func aChangeListWithOneBadChangeChangesNothingAndNamesTheChange() async throws {
        let directory = try TemporaryDirectory()
        let core = try await CoreUnderTest.open(in: directory)
        let photo = try ImageFixtures.image(at: directory.file("photo.jpg"))
        let notAPhoto = directory.file("notes.txt")
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: notAPhoto))
        let token = try await core.database.currentToken()
        let filesBefore = try Self.files(under: directory.file("library"))

        await #expect(throws: LibraryError.self) {
            _ = try await core.changeRequests.perform(
                [
                    .createAlbum(title: "Trip", placeholder: "album", parent: nil),
                    .createAsset(AssetCreation(path: photo, placeholder: "photo")),
                    .createAsset(AssetCreation(path: notAPhoto)),
                ], caller: Self.caller, logger: CoreUnderTest.logger)
        }
        do {
            _ = try await core.changeRequests.perform(
                [.createAsset(AssetCreation(path: photo)), .createAsset(AssetCreation(path: notAPhoto))],
                caller: Self.caller, logger: CoreUnderTest.logger)
            Issue.record("a change list with a text file as a photo was committed")
        } catch LibraryError.invalidChange(let index, _) {
            #expect(index == 1)
        }

        #expect(try await core.database.currentToken() == token)
        #expect(try await core.database.fetchAssets(AssetQuery(), pageSize: 10).assets.isEmpty)
        #expect(try await core.database.fetchCollections(CollectionQuery(kind: .album)).collections.isEmpty)
        // The copy the good change had made is gone with the list.
        #expect(try Self.files(under: directory.file("library")) == filesBefore)
        await core.close()
    }

    @Test func aChangeListCommitsAsOneTransactionAndObjectsGetTheirIds() async throws {
        let directory = try TemporaryDirectory()
        let core = try await CoreUnderTest.open(in: directory)
        let photo = try ImageFixtures.image(at: directory.file("photo.jpg"))
        let before = core.database.feed.generation

        let outcome = try await core.changeRequests.perform(
            [
                .createAlbum(title: "Trip", placeholder: "album", parent: nil),
                .createAsset(AssetCreation(path: photo, placeholder: "photo")),
            ], caller: Self.caller, logger: CoreUnderTest.logger)
        let album = try #require(outcome.created["album"]), asset = try #require(outcome.created["photo"])
        _ = try await core.changeRequests.perform(
            [.addAssets(target: album, ids: [asset]), .updateAsset(target: asset, AssetUpdate(isFavorite: true))],
            caller: Self.caller, logger: CoreUnderTest.logger)

        let logged = try await core.database.history.committedChanges(after: before, limit: 10)
        #expect(logged.count == 2)
        #expect(logged.last?.objects.contains { $0.id == asset && $0.change == .changed } == true)
        let members = try await core.database.fetchAssets(AssetQuery(collection: album), pageSize: 10).assets
        #expect(members.map(\.id) == [asset])
        #expect(members.first?.isFavorite == true)
        await core.close()
    }

    @Test func anImageIsMadeOnceThenServedFromTheCache() async throws {
        let directory = try TemporaryDirectory()
        let core = try await CoreUnderTest.open(in: directory)
        let photo = try ImageFixtures.image(at: directory.file("photo.jpg"), width: 600, height: 400)
        let imported = try await core.imports.importFiles(
            [photo], mode: .copy, album: nil, caller: Self.caller, logger: CoreUnderTest.logger, progress: { _ in })
        let assetId = try #require(imported.first?.assetId)
        let request = ImageRequest(
            assetId: assetId, targetSize: PixelSize(width: 150, height: 100), contentMode: .aspectFit,
            resizeMode: .exact)

        var first: [DeliveredImage] = [], second: [DeliveredImage] = []
        try await core.images.requestImage(request) { first.append($0) }
        try await core.images.requestImage(request) { second.append($0) }

        #expect(first.count == 1 && first[0].isDegraded == false)
        #expect(first[0].rendition.width == 150 && first[0].rendition.height == 100)
        #expect(second.map(\.rendition.path) == first.map(\.rendition.path))
        await #expect(throws: ImageError.notFound(assetId: "no-such-asset")) {
            try await core.images.requestImage(
                ImageRequest(assetId: "no-such-asset", targetSize: nil, contentMode: .aspectFit, resizeMode: .fast)
            ) { _ in }
        }
        await core.close()
    }

    @Test func aPhotoWhoseFileCannotBeReadNowIsStillShownFromTheCache() async throws {
        let directory = try TemporaryDirectory()
        let core = try await CoreUnderTest.open(in: directory)
        let photo = try ImageFixtures.image(at: directory.file("photo.jpg"), width: 600, height: 400)
        let imported = try await core.imports.importFiles(
            [photo], mode: .reference, album: nil, caller: Self.caller, logger: CoreUnderTest.logger,
            progress: { _ in })
        let assetId = try #require(imported.first?.assetId)
        let request = ImageRequest(
            assetId: assetId, targetSize: PixelSize(width: 150, height: 100), contentMode: .aspectFit,
            resizeMode: .exact)
        var shown: [DeliveredImage] = []
        try await core.images.requestImage(request) { shown.append($0) }

        // As when its disk is unmounted: the file is not there to read.
        try FileManager.default.moveItem(atPath: photo, toPath: directory.file("elsewhere.jpg"))
        var shownAgain: [DeliveredImage] = []
        try await core.images.requestImage(request) { shownAgain.append($0) }

        #expect(shownAgain == shown)
        await #expect(throws: ImageError.self) {
            try await core.images.requestImage(
                ImageRequest(
                    assetId: assetId, targetSize: PixelSize(width: 90, height: 60), contentMode: .aspectFit,
                    resizeMode: .exact)
            ) { _ in }
        }
        await core.close()
    }

    @Test func aReloadChangesWhatCanChangeWhileRunning() async throws {
        let directory = try TemporaryDirectory()
        let core = try await CoreUnderTest.open(in: directory)
        var reloaded = core.configuration
        reloaded.access = AccessPolicy(readOnlyUsers: [4_321])
        reloaded.trashRetentionDays = 7

        await core.reconfigure(reloaded)

        #expect(core.configuration.trashRetentionDays == 7)
        #expect(core.authorization.access(of: Caller(pid: 1, uid: 4_321, gid: 4_321)).canWrite == false)
        #expect(core.authorization.access(of: Caller(pid: 1, uid: 4_321, gid: 4_321)).canRead)
        await core.close()
    }
}
