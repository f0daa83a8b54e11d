import Foundation
import Testing
import TestSupport

/// Python's `varlink` package from PyPI, as any outside client would use it (installed by scripts/setup).
struct StockClientTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Interop/stock_varlink_client.py").path

    @Test func pythonsVarlinkClientIntrospectsEveryInterfaceAndFetches() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 2)
        let result = try runTool("/usr/bin/env", ["python3", Self.script, library.daemon.socketPath, "2"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(summary["io.photolibd.Library"] as? [String] == [
            "AuthorizationStatus", "FetchAssets", "FetchCollections", "FetchPersistentChanges", "Observe", "PerformChanges",
        ])
        #expect((summary["io.photolibd.Images"] as? [String])?.contains("RequestImage") == true)
        #expect((summary["io.photolibd.Import"] as? [String])?.contains("ImportFiles") == true)
        #expect(summary["filenames"] as? [String] == ["photo0.jpg", "photo1.jpg"])
        #expect((summary["smartAlbums"] as? [String])?.contains("smartAlbumFavorites") == true)
        #expect(summary["status"] as? String == "authorized")
        #expect(summary["notFound"] as? String == "io.photolibd.Library.NotFound")
    }
}
