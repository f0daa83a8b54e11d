import Foundation
import PhotoModel
import Testing
@testable import LibraryStore

struct FetchTests {
    @Test func defaultOrderIsCreationDateThenId() async throws {
        let (database, _) = try makeDatabase()
        let ids = try await database.insert([
            draft("late.jpg", created: "2024-05-01T00:00:00+00:00"),
            draft("early.jpg", created: "2020-05-01T00:00:00+00:00"),
            draft("undated.jpg", created: nil),
        ])
        let page = try await database.fetchAssets(AssetQuery())
        #expect(page.assets.map(\.originalFilename) == ["undated.jpg", "early.jpg", "late.jpg"])
        #expect(Set(page.assets.map(\.id)) == Set(ids))
    }

    @Test func everyColumnOfAnAssetComesBackAsStored() async throws {
        let (database, _) = try makeDatabase()
        var full = draft("full.jpg", created: "2023-07-04T18:30:15-04:00", width: 6000, height: 4000)
        full.mediaSubtypes = [.photoHDR]
        full.orientation = 6
        full.location = Location(latitude: 48.8584, longitude: 2.2945, altitude: 35.5)
        full.burstIdentifier = "burst-1"
        full.camera = CameraData(make: "Canon", model: "EOS R5", lensModel: "RF24-70mm F2.8 L IS USM", fNumber: 2.8,
                                 exposureTime: 1.0 / 250, iso: 400, focalLength: 50, focalLength35mm: 50)
        full.annotations = Annotations(rating: 4, keywords: ["Paris", "tower"], title: "Evening", caption: "From the Seine")
        let bare = draft("bare.jpg", created: nil)
        let ids = try await database.insert([full, bare])
        let assets = try await database.fetchAssets(AssetQuery(), includeResources: true).assets
        let read = try #require(assets.first { $0.id == ids[0] })
        #expect(read.mediaType == .image && read.mediaSubtypes == [.photoHDR])
        #expect(read.pixelWidth == 6000 && read.pixelHeight == 4000 && read.orientation == 6)
        #expect(read.creationDate == Timestamp(rfc3339: "2023-07-04T18:30:15-04:00") && read.creationDateSource == .exif)
        #expect(read.location == Location(latitude: 48.8584, longitude: 2.2945, altitude: 35.5))
        #expect(read.burstIdentifier == "burst-1" && read.representsBurst == true)
        #expect(read.camera == full.camera && read.annotations == full.annotations)
        #expect(read.originalFilename == "full.jpg" && read.fileSize == 100 && !read.isFavorite && !read.isHidden && !read.isTrashed)
        #expect(read.resources?.map(\.path) == ["/store/full.jpg"])
        let other = try #require(assets.first { $0.id == ids[1] })
        #expect(other.creationDate == nil && other.location == nil && other.camera == CameraData())
        #expect(other.annotations == Annotations() && other.burstIdentifier == nil && other.representsBurst == nil)
    }

    @Test func pagesAndLimitsCountTheWholeResult() async throws {
        let (database, _) = try makeDatabase()
        let drafts = (0..<10).map { draft("p\($0).jpg", created: "2024-01-0\($0 == 9 ? 9 : $0 + 1)T00:00:00+00:00") }
        _ = try await database.insert(drafts)
        let page = try await database.fetchAssets(AssetQuery(), offset: 3, pageSize: 4)
        #expect(page.count == 10)
        #expect(page.assets.map(\.originalFilename) == ["p3.jpg", "p4.jpg", "p5.jpg", "p6.jpg"])
        let limited = try await database.fetchAssets(AssetQuery(limit: 5), offset: 3, pageSize: 4)
        #expect(limited.count == 5)
        #expect(limited.assets.map(\.originalFilename) == ["p3.jpg", "p4.jpg"])
    }

    @Test func sortsByAnyAllowedKeyAndRejectsOthers() async throws {
        let (database, _) = try makeDatabase()
        _ = try await database.insert([draft("a.jpg", width: 10), draft("b.jpg", width: 30), draft("c.jpg", width: 20)])
        let page = try await database.fetchAssets(AssetQuery(sort: [SortDescriptor(key: "pixelWidth", ascending: false)]))
        #expect(page.assets.map(\.pixelWidth) == [30, 20, 10])
        await #expect(throws: LibraryError.invalidParameter("query.sort.secret; DROP TABLE asset")) {
            try await database.fetchAssets(AssetQuery(sort: [SortDescriptor(key: "secret; DROP TABLE asset")]))
        }
    }

    @Test func filtersByIdsAndMediaTypes() async throws {
        let (database, _) = try makeDatabase()
        let ids = try await database.insert([draft("a.jpg"), draft("b.jpg"), draft("c.jpg")])
        #expect(try await database.fetchAssets(AssetQuery(ids: [ids[2], ids[0], "nope"])).count == 2)
        #expect(try await database.fetchAssets(AssetQuery(mediaTypes: [.video])).count == 0)
        #expect(try await database.fetchAssets(AssetQuery(mediaTypes: [.image, .video])).count == 3)
    }

    @Test func includeResourcesListsTheFiles() async throws {
        let (database, _) = try makeDatabase()
        _ = try await database.insert([draft("a.jpg")])
        let asset = try await database.fetchAssets(AssetQuery(), includeResources: true).assets[0]
        #expect(asset.resources == [AssetResource(type: .photo, originalFilename: "a.jpg", mimeType: "image/jpeg",
                                                  fileSize: 100, path: "/store/a.jpg")])
    }

    @Test func smartAlbumsExistFromTheStartWithExactCounts() async throws {
        let (database, _) = try makeDatabase()
        let smart = try await database.fetchCollections(CollectionQuery(kind: .smartAlbum))
        #expect(Set(smart.collections.map(\.subtype)) == Set(CollectionSubtype.smartAlbums))
        let ids = try await database.insert([draft("a.jpg"), draft("b.jpg"), draft("pano.jpg", width: 8000, height: 2000)])
        _ = try await database.performChanges([.updateAsset(target: ids[0], AssetUpdate(isFavorite: true)),
                                               .updateAsset(target: ids[1], AssetUpdate(isHidden: true))])
        func count(_ subtype: CollectionSubtype) async throws -> Int? {
            try await database.fetchCollections(CollectionQuery(subtype: subtype)).collections.first?.assetCount
        }
        #expect(try await count(.smartAlbumUserLibrary) == 2)
        #expect(try await count(.smartAlbumFavorites) == 1)
        #expect(try await count(.smartAlbumAllHidden) == 1)
        #expect(try await count(.smartAlbumPanoramas) == 1)
        #expect(try await count(.smartAlbumRecentlyAdded) == 2)
        #expect(try await count(.smartAlbumVideos) == 0)
        let library = try await database.fetchCollections(CollectionQuery(subtype: .smartAlbumUserLibrary)).collections[0]
        #expect(library.startDate == Timestamp(rfc3339: "2024-01-31T10:15:00+01:00"))
        #expect(try await database.fetchAssets(AssetQuery(collection: library.id)).count == 2)
    }

    @Test func unknownCollectionsAreNotFound() async throws {
        let (database, _) = try makeDatabase()
        await #expect(throws: LibraryError.notFound(id: "nope")) {
            try await database.fetchAssets(AssetQuery(collection: "nope"))
        }
    }

    @Test func identityAndChangesSurviveReopening() async throws {
        let (database, path) = try makeDatabase()
        _ = try await database.insert([draft("a.jpg")])
        let token = try await database.currentToken()
        let reopened = try LibraryDatabase(path: path)
        #expect(try await reopened.currentToken() == token)
        #expect(reopened.feed.generation == 1)
    }
}
