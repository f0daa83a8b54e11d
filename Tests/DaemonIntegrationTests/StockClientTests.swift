import Foundation
import TestSupport
import Testing

/// Python's `varlink` package from PyPI, as any outside client would use it (installed by scripts/setup).
struct StockClientTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Interop/stock_varlink_client.py").path

    @Test func pythonsVarlinkClientIntrospectsAndCallsEveryInterfaceWithStreams() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 2)
        let photos = try TemporaryDirectory()
        let photo = try ImageFixtures.image(at: photos.file("new.jpg"))
        let result = try runTool("/usr/bin/env", ["python3", Self.script, library.daemon.socketPath, "2", photo])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(
            summary["io.photolibd.Library"] as? [String] == [
                "AuthorizationStatus", "FetchAssetMetadata", "FetchAssets", "FetchCollections", "FetchDuplicates",
                "FetchPersistentChanges", "FetchPlaces", "Observe", "PerformChanges", "UpdateObservation",
            ])
        #expect(
            summary["io.photolibd.Images"] as? [String] == [
                "ExportVideo", "ReadFile", "RequestContentEditingInput", "RequestImage", "RequestImageData",
                "StartCaching",
                "StopCaching",
            ])
        #expect(
            summary["io.photolibd.Import"] as? [String] == [
                "AddSource", "ImportFiles", "ListSources", "RemoveSource", "Status", "Upload",
            ])
        #expect(summary["filenames"] as? [String] == ["photo0.jpg", "photo1.jpg"])
        #expect((summary["smartAlbums"] as? [String])?.contains("smartAlbumFavorites") == true)
        #expect(summary["status"] as? String == "authorized")
        #expect(summary["metadataGroups"] as? [String] == ["exif", "gps", "iptc", "tiff", "xmp"])
        #expect(summary["notFound"] as? String == "io.photolibd.Library.NotFound")

        let first = try #require(summary["first"] as? String)
        #expect(library.assetIds.contains(first))
        let observed = try #require(summary["observed"] as? [String: Any])
        #expect(observed["snapshot"] as? Int == 0)
        #expect(observed["sameToken"] as? Bool == true && observed["previousIsSnapshot"] as? Bool == true)
        #expect(observed["insertedIds"] as? [String] == [first])
        #expect((observed["objects"] as? [[String]])?.contains([first, "asset", "changed"]) == true)
        let updated = try #require(summary["updated"] as? [String: Any])
        #expect(updated["added"] as? [[AnyHashable]] == [["all", 2]])
        #expect(updated["addedAtChange"] as? Bool == true)
        #expect(updated["reported"] as? [String] == ["all"], "only the query still followed")
        #expect(updated["changedIds"] as? [[String]] == [[first]])
        let packed = try #require(summary["packed"] as? [String: Any])
        #expect(
            packed["ids"] as? Bool == true && packed["count"] as? Int == 2 && packed["hasTextIds"] as? Bool == false)
        #expect(summary["persistent"] as? [[String]] == [[first], [first]])

        let imported = try #require(summary["import"] as? [String: Any])
        #expect(imported["progress"] as? [[Int]] == [[1, 1]])
        #expect(imported["files"] as? [[String]] == [[photo, "imported"]])
        #expect((summary["sources"] as? [Any])?.isEmpty == true)
        #expect(
            summary["importStatus"] as? [String] == [
                "analysis", "cache", "failed", "imported", "library", "offlineSources", "pollingSources", "processing",
                "queued", "recentFailures",
                "sources", "version",
            ])
        let image = try #require(summary["image"] as? [String: Any])
        #expect(image["final"] as? Bool == true && image["fits"] as? Bool == true && image["readable"] as? Bool == true)
        #expect(image["mimeType"] as? String == "image/jpeg")
        let edit = try #require(summary["edit"] as? [String: Any])
        #expect(edit["hasAdjustments"] as? Bool == true && edit["reverted"] as? Bool == false)
        #expect(edit["resumed"] as? [String] == ["original", "same data"])
        #expect(edit["current"] as? [String] == ["current", "no adjustment"])
    }
}
