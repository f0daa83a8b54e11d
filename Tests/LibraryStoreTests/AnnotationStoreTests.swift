import Foundation
import GRDB
import PhotoModel
import Testing

@testable import LibraryStore

/// Ratings, keywords, titles and captions in the store: kept with the asset, changed by `updateAsset` as one
/// change, and applied from sidecars only when they differ.
struct AnnotationStoreTests {
    @Test func importedAnnotationsAreFetchedWithTheAssetInTheirOrder() async throws {
        let (database, _) = try makeDatabase()
        var photo = draft("a.jpg")
        photo.annotations = Annotations(
            rating: 4, keywords: ["zebra", "Places|Paris", "apple"], title: "T", caption: "C")
        let ids = try await database.insert([photo, draft("b.jpg")])
        let assets = try await database.fetchAssets(AssetQuery(sort: [SortDescriptor(key: "rating", ascending: false)]))
            .assets
        #expect(assets.map(\.id) == ids)
        #expect(assets[0].annotations == photo.annotations)
        #expect(assets[1].annotations == Annotations())
    }

    @Test func anUpdateIsOneChangeAndASidecarThatSaysTheSameIsNone() async throws {
        let (database, _) = try makeDatabase()
        let id = try await database.insert([draft("a.jpg")])[0]
        let generation = database.feed.generation
        _ = try await database.performChanges([.updateAsset(target: id, AssetUpdate(rating: 5, addKeywords: ["x"]))])
        #expect(database.feed.generation == generation + 1)
        let same = Annotations(rating: 5, keywords: ["x"])
        #expect(
            try await database.sidecars.applyAnnotations(same, fromSidecar: "/p/a.jpg.xmp", identity: nil, toAsset: id)
                == nil)
        #expect(try await database.sidecars.sidecarSubject(ofAsset: id)?.sidecar?.path == "/p/a.jpg.xmp")
        let token = try await database.sidecars.applyAnnotations(
            Annotations(rating: 1), fromSidecar: nil, identity: nil, toAsset: id)
        #expect(token != nil)
        let subject = try #require(try await database.sidecars.sidecarSubject(ofAsset: id))
        #expect(subject.annotations == Annotations(rating: 1) && subject.sidecar == nil)
    }

    @Test func aPurgedAssetTakesItsKeywordsAndSidecarRecordWithIt() async throws {
        let (database, path) = try makeDatabase()
        var photo = draft("a.jpg")
        photo.annotations = Annotations(keywords: ["gone"])
        let id = try await database.insert([photo])[0]
        try await database.sidecars.recordSidecarWrite(
            path: "/p/a.jpg.xmp", identity: nil, problem: "Read-only file system", ofAsset: id)
        let states = try await database.fetchAssets(AssetQuery(ids: [id]), includeResources: true).assets.first?.sidecar
        #expect(states == SidecarState(path: "/p/a.jpg.xmp", writeProblem: "Read-only file system"))
        _ = try await database.performChanges([.deleteAssets(ids: [id], permanently: true)])
        let remaining = try await database.writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT (SELECT count(*) FROM asset_keyword) + (SELECT count(*) FROM asset_sidecar)")
        }
        #expect(remaining == 0, "\(path)")
    }

    @Test func keywordAndRatingQueriesUseTheirIndexes() async throws {
        let (database, _) = try makeDatabase()
        let plans = try await database.writer.read { db in
            try [
                "asset.id IN (SELECT assetId FROM asset_keyword WHERE asset_keyword.keyword IS 'x')",
                "asset.rating >= 4",
            ].map {
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT asset.id FROM asset WHERE \($0)")
                    .map { $0["detail"] as String }.joined(separator: "\n")
            }
        }
        #expect(plans[0].contains("asset_keyword_by_keyword"), "\(plans[0])")
        #expect(plans[1].contains("asset_by_rating"), "\(plans[1])")
    }
}
