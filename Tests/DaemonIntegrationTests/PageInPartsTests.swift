import Foundation
import LibraryStore
import PhotoLibrary
import PhotoModel
import PhotolibProtocol
import Testing
import TestSupport
import Varlink

/// A page goes out in parts as the daemon reads its rows, each part's assets with their own keywords and resources.
@Suite(.timeLimit(.minutes(2))) struct PageInPartsTests {
    static let assetCount = 260
    /// Assets with keywords, at the edges of the daemon's parts of 50 and between them.
    static let keyworded: Set<Int> = [0, 1, 49, 50, 99, 100, 101, 175, 259]

    @Test func aPageOfManyPartsArrivesWholeWithEachAssetsOwnKeywordsAndResources() async throws {
        let daemon = try DaemonProcess()
        try FileManager.default.createDirectory(atPath: daemon.libraryPath, withIntermediateDirectories: true)
        let database = try LibraryDatabase(path: daemon.libraryPath + "/library.sqlite")
        var drafts: [Int: AssetDraft] = [:]
        for index in 0..<Self.assetCount {
            drafts[index] = AssetDraft(
                mediaType: .image, pixelWidth: 4000, pixelHeight: 3000, orientation: 1,
                creationDate: Timestamp(secondsSince1970: 1_704_067_200 + Double(index) * 60),
                creationDateSource: .exif, location: nil, contentHash: "page-\(index)",
                resources: [DraftResource(type: .photo, originalFilename: "\(index).jpg", mimeType: "image/jpeg", fileSize: 100,
                                          path: "/nonexistent/\(index).jpg", isOwnedByLibrary: false)])
        }
        let created = try await database.performChanges(
            (0..<Self.assetCount).map { .createAsset(AssetCreation(path: "/nonexistent/\($0).jpg", placeholder: "@\($0)")) }
                + Self.keyworded.map { .updateAsset(target: "@\($0)", AssetUpdate(keywords: ["k\($0)", "shared"])) },
            drafts: drafts).created
        let ids = (0..<Self.assetCount).map { created["@\($0)"]! }
        try await daemon.start()
        let client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let connection = try await daemon.connect()
        // As it starts, the daemon writes the keyworded assets' sidecars (here their folder does not exist) and records
        // how each went, with no new change token: the page is taken once all are recorded, so that two reads agree.
        let sidecarsRecorded = try await eventually {
            let assets = try await client.fetchAssets(includeResources: true).assets
            return assets.count == Self.assetCount && Self.keyworded.allSatisfy { assets[$0].sidecar != nil }
        }
        #expect(sidecarsRecorded, "the daemon recorded each keyworded asset's sidecar")

        let page = try await client.fetchAssets(includeResources: true)
        #expect(page.count == Self.assetCount)
        #expect(page.assets.map(\.id) == ids)
        for (index, asset) in page.assets.enumerated() {
            #expect(asset.annotations.keywords == (Self.keyworded.contains(index) ? ["k\(index)", "shared"] : []), "asset \(index)")
            #expect(asset.resources?.map(\.path) == ["/nonexistent/\(index).jpg"], "asset \(index)")
        }
        // Read whole, as a client that knows nothing of parts reads it, the reply is the same page.
        let parameters = FetchAssetsParameters(query: AssetQuery(), offset: nil, pageSize: nil, includeResources: true)
        #expect(try await connection.call(LibraryMethod.fetchAssets.qualifiedName, parameters: parameters,
                                          returning: AssetFetchResult.self) == page)
        // Pages that begin and end inside a part, or hold none.
        for (offset, size) in [(45, 10), (49, 2), (250, 20), (0, 0), (300, 5)] {
            let slice = try await client.fetchAssets(offset: offset, pageSize: size)
            #expect(slice.count == Self.assetCount)
            #expect(slice.assets.map(\.id) == Array(ids.dropFirst(offset).prefix(size)), "offset \(offset), size \(size)")
            #expect(slice.token == page.token)
        }
        await connection.close()
        await client.close()
        _ = try await daemon.stop()
    }
}
