import Foundation
import HTTPTypes
import NIOCore
import PhotoLibrary
import TestSupport
import Testing

@testable import PhotolibWeb

/// The gallery's routes against the real daemon: views, sections, images, files, uploads, and their bad input.
@Suite(.serialized)
struct RouteTests {
    @Test func theTimelineIndexAndItsSectionsHoldEveryAssetNewestFirst() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 3)
        try await gallery.test { client in
            let index = try await client.execute(uri: "/api/views/timeline", method: .get, headers: gallery.signedIn)
            #expect(index.status == .ok, "\(String(buffer: index.body))")
            let view = try #require(try JSONSerialization.jsonObject(with: Data(buffer: index.body)) as? [String: Any])
            #expect(view["count"] as? Int == 3)
            let sections = try #require(view["sections"] as? [[Any]])
            #expect(sections.map { $0[0] as! String } == ["2024-05-12", "2024-05-11", "2024-05-10"])
            let keys = sections.map { $0[0] as! String }.joined(separator: ",")
            let tiles = try await client.execute(
                uri: "/api/views/timeline/sections?keys=\(keys)", method: .get, headers: gallery.signedIn)
            let loaded = try JSONSerialization.jsonObject(with: Data(buffer: tiles.body)) as! [String: Any]
            let ids = (loaded["sections"] as! [[String: Any]]).flatMap {
                ($0["tiles"] as! [[Any]]).map { $0[0] as! String }
            }
            #expect(ids == gallery.assetIds.reversed())
        }
    }

    @Test func unknownIdsAndViewsAnswer404() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 1)
        let unknown = "00000000-0000-4000-8000-000000000000"
        try await gallery.test { client in
            for path in [
                "/image/\(unknown)/o/256", "/original/\(unknown)", "/video/\(unknown)", "/api/assets/\(unknown)",
                "/api/views/collection-\(unknown)", "/api/views/nonsense", "/image/\(gallery.assetIds[0])/o/999",
            ] {
                let response = try await client.execute(uri: path, method: .get, headers: gallery.signedIn)
                #expect(response.status == .notFound, "\(path)")
            }
        }
    }

    @Test func aThumbnailIsImmutableAndAnswers304ToItsETag() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 1)
        try await gallery.test { client in
            let path = "/image/\(gallery.assetIds[0])/o/256"
            let first = try await client.execute(uri: path, method: .get, headers: gallery.signedIn)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "image/jpeg")
            #expect(first.headers[.cacheControl]?.contains("immutable") == true)
            #expect(first.body.readableBytes > 100)
            let etag = try #require(first.headers[.eTag])
            var headers = gallery.signedIn
            headers[.ifNoneMatch] = etag
            let again = try await client.execute(uri: path, method: .get, headers: headers)
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
        }
    }

    @Test func aThumbnailServedMomentsAgoIsNotServedOnceItsAssetLeavesTheLibrary() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 2)
        try await gallery.test { client in
            let (gone, kept) = (gallery.assetIds[0], gallery.assetIds[1])
            for id in [gone, kept] {
                let first = try await client.execute(uri: "/image/\(id)/o/256", method: .get, headers: gallery.signedIn)
                #expect(first.status == .ok)
            }
            let library = try await PhotoLibrary.connect(socketPath: gallery.daemon.socketPath)
            var purge = PhotoLibrary.ChangeBuilder()
            purge.deleteAssets([gone], permanently: true)
            _ = try await library.performChanges(purge)
            await library.close()
            let deadline = ContinuousClock.now + .seconds(10)
            var status = HTTPResponse.Status.ok
            while status == .ok, ContinuousClock.now < deadline {
                status = try await client.execute(uri: "/image/\(gone)/o/256", method: .get, headers: gallery.signedIn)
                    .status
                if status == .ok { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(status == .notFound)
            let other = try await client.execute(uri: "/image/\(kept)/o/256", method: .get, headers: gallery.signedIn)
            #expect(other.status == .ok && other.body.readableBytes > 100)
        }
    }

    @Test func recentThumbnailsKeepTheNewestWithinTheirBytesAndLifetime() async throws {
        let thumbnails = RecentThumbnails(byteLimit: 3_000, lifetime: .milliseconds(200))
        func picture(_ size: Int) -> RecentThumbnails.Thumbnail {
            RecentThumbnails.Thumbnail(bytes: ByteBuffer(repeating: 1, count: size), mimeType: "image/jpeg")
        }
        thumbnails.keep(picture(1_000), for: "a/1/256", assetId: "a")
        thumbnails.keep(picture(1_000), for: "a/1/512", assetId: "a")
        thumbnails.keep(picture(1_000), for: "b/1/256", assetId: "b")
        thumbnails.keep(picture(1_000), for: "c/1/256", assetId: "c")
        #expect(thumbnails.thumbnail(for: "a/1/256") == nil, "the oldest went to make room")
        #expect(thumbnails.thumbnail(for: "c/1/256")?.bytes.readableBytes == 1_000)
        thumbnails.keep(picture(RecentThumbnails.largestKept + 1), for: "d/1/256", assetId: "d")
        #expect(thumbnails.thumbnail(for: "d/1/256") == nil, "too large to keep")
        thumbnails.forget(assetIds: ["a", "b"])
        #expect(thumbnails.thumbnail(for: "a/1/512") == nil && thumbnails.thumbnail(for: "b/1/256") == nil)
        #expect(thumbnails.thumbnail(for: "c/1/256") != nil)
        try await Task.sleep(for: .milliseconds(300))
        #expect(thumbnails.thumbnail(for: "c/1/256") == nil, "asked for again after its lifetime")
    }

    @Test func anOriginalIsServedInRangesAndARangeBeyondItAnswers416() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 0, video: true)
        let video = try #require(gallery.videoId)
        try await gallery.test { client in
            let whole = try await client.execute(uri: "/video/\(video)", method: .get, headers: gallery.signedIn)
            #expect(whole.status == .ok)
            #expect(whole.headers[.acceptRanges] == "bytes")
            let size = whole.body.readableBytes
            var headers = gallery.signedIn
            headers[.range] = "bytes=100-199"
            let part = try await client.execute(uri: "/video/\(video)", method: .get, headers: headers)
            #expect(part.status == .partialContent)
            #expect(part.headers[.contentRange] == "bytes 100-199/\(size)")
            #expect(Array(part.body.readableBytesView) == Array(whole.body.readableBytesView[100..<200]))
            headers[.range] = "bytes=\(size)-"
            let beyond = try await client.execute(uri: "/original/\(video)", method: .get, headers: headers)
            #expect(beyond.status == .rangeNotSatisfiable)
            #expect(beyond.headers[.contentRange] == "bytes */\(size)")
        }
    }

    @Test func aLargeOriginalIsStreamedWholeAndInRangesWithTheFilesBytes() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 0)
        // Noise does not compress: a JPEG of several megabytes, past what is read in one go.
        let path = gallery.daemon.directory + "/noise.jpg"
        try runTool("/usr/bin/vips", ["gaussnoise", path + "[Q=95]", "2400", "1800"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count > 2 * DaemonFiles.wholeReadLimit)
        let id = try #require(try await gallery.importing([path]).first)
        try await gallery.test { client in
            let whole = try await client.execute(uri: "/original/\(id)", method: .get, headers: gallery.signedIn)
            #expect(whole.status == .ok)
            #expect(whole.headers[.contentLength] == String(bytes.count))
            #expect(Data(buffer: whole.body) == bytes)
            var headers = gallery.signedIn
            headers[.range] = "bytes=1000000-"
            let tail = try await client.execute(uri: "/original/\(id)", method: .get, headers: headers)
            #expect(tail.status == .partialContent)
            #expect(Data(buffer: tail.body) == bytes.dropFirst(1_000_000))
        }
    }

    @Test func anAlbumGoesIntoAFolderAndOutAgain() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 0)
        let library = try await PhotoLibrary.connect(socketPath: gallery.daemon.socketPath)
        var changes = PhotoLibrary.ChangeBuilder()
        let album = changes.createAlbum(title: "Summer")
        let folder = changes.createFolder(title: "Trips")
        let created = try await library.performChanges(changes).created
        let (albumId, folderId) = (try #require(created[album]), try #require(created[folder]))
        try await gallery.test { client in
            for move in [
                #"{"action": "moveToFolder", "collections": ["\#(albumId)"], "folder": "\#(folderId)"}"#,
                #"{"action": "moveToFolder", "collections": ["\#(albumId)"], "folder": null, "from": "\#(folderId)"}"#,
            ] {
                let response = try await AnnotationRouteTests.change(move, ids: [], gallery: gallery, client: client)
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let parent = try await library.fetchCollections(matching: CollectionQuery(ids: [albumId])).collections
                    .first?.parentId
                #expect(parent == (move.contains("null") ? nil : folderId))
            }
            let nowhere = try await AnnotationRouteTests.change(
                #"{"action": "moveToFolder", "collections": ["\#(albumId)"]}"#,
                ids: [], gallery: gallery, client: client)
            #expect(nowhere.status == .badRequest)
        }
        await library.close()
    }

    @Test(arguments: [
        "/page/..%2f..%2fPackage.swift", "/page/../Package.swift", "/page/%2e%2e/etc/passwd",
        "/../../etc/passwd", "/page/index.html%00", "/image/..%2f..%2fetc/o/256",
    ])
    func pathTricksReachNothingOutsideTheGallerysFiles(path: String) async throws {
        let gallery = try await GalleryUnderTest.start(photos: 0)
        try await gallery.test { client in
            let response = try await client.execute(uri: path, method: .get, headers: gallery.signedIn)
            #expect(response.status == .notFound)
            #expect(!String(buffer: response.body).contains("root:"))
        }
    }

    @Test func anUploadThatIsNotMediaIsRefusedAndLeavesNothingBehind() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 1)
        try await gallery.test { client in
            let garbage = ByteBuffer(bytes: (0..<5000).map { _ in UInt8.random(in: 0...255) })
            let refused = try await client.execute(
                uri: "/api/uploads?name=broken.jpg", method: .post, headers: gallery.signedIn, body: garbage)
            #expect(refused.status == .unprocessableContent)
            #expect(
                String(buffer: refused.body).contains("unsupported") || String(buffer: refused.body).contains("failed"))
            let photo = try Data(contentsOf: URL(fileURLWithPath: gallery.daemon.directory + "/photos/IMG_0.jpg"))
            let duplicate = try await client.execute(
                uri: "/api/uploads?name=..%2F..%2Fsame.jpg", method: .post,
                headers: gallery.signedIn, body: ByteBuffer(bytes: photo))
            #expect(duplicate.status == .ok)
            #expect(String(buffer: duplicate.body).contains("duplicate"))
        }
        let staged = (try? FileManager.default.contentsOfDirectory(atPath: gallery.configuration.stagingRoot)) ?? []
        #expect(staged.isEmpty)
        let library = try await PhotoLibrary.connect(socketPath: gallery.daemon.socketPath)
        #expect(try await library.fetchAssets().count == 1)
        await library.close()
    }
}
