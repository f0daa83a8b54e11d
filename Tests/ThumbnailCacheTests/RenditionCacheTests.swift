import Foundation
import Logging
import Testing
import TestSupport
import ThumbnailCache

private let logger = Logger(label: "ThumbnailCacheTests")

private func image(bytes: Int, fill: UInt8 = 1, fileExtension: String = "jpg") -> RenditionImage {
    RenditionImage(data: [UInt8](repeating: fill, count: bytes), width: 32, height: 24,
                   mimeType: fileExtension == "png" ? "image/png" : "image/jpeg", fileExtension: fileExtension)
}

private func key(_ asset: String, _ variant: String = "short-256") -> RenditionKey {
    RenditionKey(assetId: asset, variant: variant)
}

@Suite struct RenditionCacheTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "rendition-cache")
    }

    func openCache(byteLimit: Int = 1 << 30) throws -> RenditionCache {
        try RenditionCache(directory: directory.path + "/cache", byteLimit: byteLimit, logger: logger)
    }

    @Test func aStoredRenditionIsServedFromItsFile() throws {
        let cache = try openCache()
        let stored = try cache.store(image(bytes: 100, fill: 7), for: key("a"), sourceVersion: "v1")
        let served = try #require(cache.rendition(for: key("a"), sourceVersion: "v1"))
        #expect(served == stored)
        #expect((served.width, served.height, served.mimeType, served.byteCount) == (32, 24, "image/jpeg", 100))
        #expect(served.path.hasPrefix(directory.path + "/cache/renditions/") && served.path.hasSuffix(".jpg"))
        #expect(FileManager.default.contents(atPath: served.path) == Data(repeating: 7, count: 100))
        #expect(cache.byteCount == 100 && cache.count == 1)
    }

    @Test func aRenditionOfAnotherSourceVersionIsNotServed() throws {
        let cache = try openCache()
        _ = try cache.store(image(bytes: 100), for: key("a"), sourceVersion: "v1")
        #expect(cache.rendition(for: key("a"), sourceVersion: "v2") == nil)
        #expect(cache.rendition(for: key("a"), sourceVersion: nil) != nil)
        #expect(cache.renditions(ofAsset: "a", sourceVersion: "v2").isEmpty)
        #expect(cache.renditions(ofAsset: "a", sourceVersion: "v1").map(\.key) == [key("a")])
    }

    @Test func renditionsAndTheirUseSurviveReopening() throws {
        let first = try openCache(byteLimit: 1_000)
        for asset in ["a", "b", "c"] {
            _ = try first.store(image(bytes: 300), for: key(asset), sourceVersion: "v1")
        }
        _ = first.rendition(for: key("a"), sourceVersion: "v1")
        first.saveUsage()

        let reopened = try openCache(byteLimit: 1_000)
        #expect(reopened.count == 3 && reopened.byteCount == 900)
        _ = try reopened.store(image(bytes: 300), for: key("d"), sourceVersion: "v1")
        // Over budget: the least recently used go until the files fill 90% of it. "a" was used after "b" was stored.
        #expect(reopened.rendition(for: key("b"), sourceVersion: "v1") == nil)
        for asset in ["a", "c", "d"] {
            #expect(reopened.rendition(for: key(asset), sourceVersion: "v1") != nil, "\(asset)")
        }
        #expect(reopened.byteCount == 900)
    }

    @Test func theRenditionJustStoredIsKeptEvenWhenItAloneExceedsTheBudget() throws {
        let cache = try openCache(byteLimit: 100)
        _ = try cache.store(image(bytes: 80), for: key("a"), sourceVersion: "v1")
        _ = try cache.store(image(bytes: 500), for: key("b"), sourceVersion: "v1")
        #expect(cache.rendition(for: key("a"), sourceVersion: "v1") == nil)
        #expect(cache.rendition(for: key("b"), sourceVersion: "v1") != nil)
    }

    @Test func aTruncatedFileIsForgottenSoThatItIsMadeAgain() throws {
        let cache = try openCache()
        let stored = try cache.store(image(bytes: 100), for: key("a"), sourceVersion: "v1")
        try Data(repeating: 1, count: 40).write(to: URL(fileURLWithPath: stored.path))
        #expect(cache.rendition(for: key("a"), sourceVersion: "v1") == nil)
        #expect(cache.count == 0 && !FileManager.default.fileExists(atPath: stored.path))
        #expect(try cache.store(image(bytes: 100), for: key("a"), sourceVersion: "v1") == stored)
    }

    @Test func aFileDamagedWhileTheCacheWasClosedIsCaughtByItsChecksum() throws {
        let stored = try openCache().store(image(bytes: 100, fill: 1), for: key("a"), sourceVersion: "v1")
        try Data(repeating: 9, count: 100).write(to: URL(fileURLWithPath: stored.path))
        let reopened = try openCache()
        #expect(reopened.rendition(for: key("a"), sourceVersion: "v1") == nil)
        #expect(reopened.count == 0)
    }

    @Test func aMissingFileIsForgotten() throws {
        let cache = try openCache()
        let stored = try cache.store(image(bytes: 100), for: key("a"), sourceVersion: "v1")
        try FileManager.default.removeItem(atPath: stored.path)
        #expect(cache.rendition(for: key("a"), sourceVersion: "v1") == nil && cache.count == 0)
    }

    @Test func aCacheDirectoryRemovedWhileOpenIsMadeAgainForTheNextRendition() throws {
        let cache = try openCache()
        let first = try cache.store(image(bytes: 100), for: key("a"), sourceVersion: "v1")
        try FileManager.default.removeItem(atPath: directory.path + "/cache")
        #expect(cache.rendition(for: key("a"), sourceVersion: "v1") == nil)
        let second = try cache.store(image(bytes: 50, fill: 3), for: key("a"), sourceVersion: "v1")
        #expect(second.path == first.path && FileManager.default.contents(atPath: second.path) == Data(repeating: 3, count: 50))
        #expect(cache.rendition(for: key("a"), sourceVersion: "v1") == second)
    }

    @Test func storingAnotherFormatReplacesTheOldFile() throws {
        let cache = try openCache()
        let jpeg = try cache.store(image(bytes: 100), for: key("a"), sourceVersion: "v1")
        let png = try cache.store(image(bytes: 60, fileExtension: "png"), for: key("a"), sourceVersion: "v2")
        #expect(jpeg.path != png.path && !FileManager.default.fileExists(atPath: jpeg.path))
        #expect(cache.byteCount == 60 && cache.rendition(for: key("a"), sourceVersion: "v2")?.mimeType == "image/png")
    }

    @Test func anAssetsRenditionsAreRemovedTogether() throws {
        let cache = try openCache()
        let paths = try ["short-256", "short-1024"].map { try cache.store(image(bytes: 10), for: key("a", $0), sourceVersion: "v1").path }
        _ = try cache.store(image(bytes: 10), for: key("b"), sourceVersion: "v1")
        cache.removeRenditions(ofAsset: "a")
        #expect(cache.count == 1 && paths.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
        _ = try cache.store(image(bytes: 10), for: key("a"), sourceVersion: "v2")
        #expect(cache.count == 2)
    }

    @Test func anAssetRemovedFromTheLibraryGetsNoNewRendition() throws {
        let cache = try openCache()
        _ = try cache.store(image(bytes: 10), for: key("a"), sourceVersion: "v1")
        cache.forgetAsset("a")
        #expect(cache.count == 0)
        #expect(throws: RenditionCacheError.assetRemoved(assetId: "a")) {
            try cache.store(image(bytes: 10), for: key("a", "short-1024"), sourceVersion: "v1")
        }
        #expect(cache.count == 0)
    }

    @Test func filesNoRenditionNamesAreSweptAway() throws {
        let cache = try openCache()
        let kept = try cache.store(image(bytes: 10), for: key("a"), sourceVersion: "v1")
        let renditions = directory.path + "/cache/renditions"
        try FileManager.default.createDirectory(atPath: renditions + "/zz", withIntermediateDirectories: true)
        for orphan in [renditions + "/zz/orphan.jpg", renditions + "/incoming/unfinished"] {
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: orphan))
        }
        cache.removeOrphanedFiles(olderThan: Date().addingTimeInterval(60))
        #expect(FileManager.default.fileExists(atPath: kept.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: renditions + "/zz").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: renditions + "/incoming").isEmpty)
    }

    @Test func anUnreadableIndexIsReplacedByAnEmptyCache() throws {
        let stored = try openCache().store(image(bytes: 10), for: key("a"), sourceVersion: "v1")
        try Data(repeating: 0x55, count: 4096).write(to: URL(fileURLWithPath: directory.path + "/cache/index.sqlite"))
        let reopened = try openCache()
        #expect(reopened.count == 0 && !FileManager.default.fileExists(atPath: stored.path))
        _ = try reopened.store(image(bytes: 10), for: key("a"), sourceVersion: "v1")
        #expect(reopened.rendition(for: key("a"), sourceVersion: "v1") != nil)
    }

    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a small tmpfs needs root"))
    func aFullDiskMakesRoomFromTheLeastRecentlyUsedThenSaysItIsFull() throws {
        let disk = try SmallFileSystem(bytes: 1 << 20)
        let cache = try RenditionCache(directory: disk.path + "/cache", byteLimit: 1 << 30, logger: logger)
        for asset in ["a", "b", "c", "d"] {
            _ = try cache.store(image(bytes: 40_000), for: key(asset), sourceVersion: "v1")
        }
        _ = cache.rendition(for: key("a"), sourceVersion: "v1")
        disk.fill()
        _ = try cache.store(image(bytes: 20_000), for: key("e"), sourceVersion: "v1")
        #expect(cache.rendition(for: key("e"), sourceVersion: "v1") != nil)
        #expect(cache.rendition(for: key("b"), sourceVersion: "v1") == nil)

        disk.fill()
        #expect(throws: RenditionCacheError.diskFull(directory: disk.path + "/cache")) {
            try cache.store(image(bytes: 600_000), for: key("f"), sourceVersion: "v1")
        }
        #expect(cache.count == 0)
    }
}
