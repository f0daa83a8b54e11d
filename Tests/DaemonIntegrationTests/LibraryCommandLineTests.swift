import Foundation
import Glibc
import PhotoLibrary
import Testing
import TestSupport

/// The `photolib` commands for folders, albums, predicates, the trash and smart albums, against a real daemon.
@Suite(.serialized)
struct LibraryCommandLineTests {
    private func photolib(_ library: PopulatedDaemon, _ arguments: [String]) throws -> String {
        try runTool(DaemonProcess.productsDirectory + "/photolib", ["--socket", library.daemon.socketPath] + arguments).output
    }

    private func id(_ output: String) -> String { output.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The start of `id` that tables show.
    private func short(_ id: String) -> String { String(id.prefix(8)) }

    @Test func foldersAndAlbumsShowAsATreeAndMove() async throws {
        let (library, assets) = try await ModelLibrary.make()
        let trips = id(try photolib(library, ["folder", "create", "Trips"]))
        let year = id(try photolib(library, ["folder", "create", "2024", "--in", trips]))
        let spring = id(try photolib(library, ["album", "create", "Spring", "--in", year]))
        let loose = id(try photolib(library, ["album", "create", "Loose"]))
        _ = try photolib(library, ["album", "add", spring, assets["plain"]!, assets["video"]!])

        let tree = try photolib(library, ["albums"]).split(separator: "\n").map(String.init)
        #expect(tree.contains { $0.contains("Favorites") && $0.contains(" 1 ") })
        let top = try #require(tree.firstIndex { $0.hasPrefix(short(loose)) })
        #expect(tree[top].hasSuffix("  Loose") && tree[top + 1].hasSuffix("  Trips/") && tree[top + 2].hasSuffix("    2024/"))
        #expect(tree[top + 3].contains(" 2 ") && tree[top + 3].hasSuffix("      Spring"))

        _ = try photolib(library, ["album", "move", loose, "--into", year, "--at", "0"])
        var lines = try photolib(library, ["albums"]).split(separator: "\n").map(String.init)
        let yearLine = try #require(lines.firstIndex { $0.hasPrefix(short(year)) })
        #expect(lines[yearLine + 1].hasSuffix("      Loose") && lines[yearLine + 2].hasSuffix("      Spring"))
        _ = try photolib(library, ["album", "move", loose])
        lines = try photolib(library, ["albums"]).split(separator: "\n").map(String.init)
        let looseLine = try #require(lines.firstIndex { $0.hasPrefix(short(loose)) })
        #expect(looseLine < (try #require(lines.firstIndex { $0.hasPrefix(short(trips)) })))
        let moved = try #require(try await library.collections(CollectionQuery(ids: [loose])).first)
        #expect(moved.parentId == nil)
    }

    @Test func aReaderThatGoesAwayEndsTheCommandQuietly() async throws {
        let (library, _) = try await ModelLibrary.make()
        for arguments in [["assets"], ["assets", "--json"], ["smart"], ["albums"]] {
            // As `photolib assets | head -1` once head has exited: nobody reads the pipe.
            let output = Pipe(), errors = Pipe()
            try output.fileHandleForReading.close()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: DaemonProcess.productsDirectory + "/photolib")
            process.arguments = ["--socket", library.daemon.socketPath] + arguments
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGPIPE,
                    "photolib \(arguments) ended with \(process.terminationStatus)")
            #expect(said.isEmpty, "photolib \(arguments) said: \(said)")
        }
    }

    @Test func bothCommandsTellTheirVersion() throws {
        for tool in ["photolib", "photolibd"] {
            let result = try runTool(DaemonProcess.productsDirectory + "/" + tool, ["--version"])
            #expect(result.output == PhotolibVersion.current + "\n", "\(tool) --version printed \(result.output)")
        }
    }

    @Test func assetsFilterWithAPredicateAndSortDescending() async throws {
        let (library, assets) = try await ModelLibrary.make()
        let output = try photolib(library, ["assets", "--json", "--where", "mediaType == 1 AND creationDate >= '2024-03-01T00:00:00Z'",
                                            "--sort", "-creationDate"])
        let listed = try output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["id"] as? String
        }
        #expect(listed == ["favorite", "burst1", "raw", "taggedPanorama", "panorama", "live"].map { assets[$0] })
        let frames = try photolib(library, ["assets", "--where", "burstIdentifier == 'burst'", "--all-burst-frames"])
        #expect(frames.split(separator: "\n").count == 4)
        let refused = try runTool(DaemonProcess.productsDirectory + "/photolib",
                                  ["--socket", library.daemon.socketPath, "assets", "--where", "pixelWidth > 'wide'"], checked: false)
        #expect(refused.status != 0)
        #expect(refused.errors.contains("pixelWidth needs a number at position 13"))
    }

    @Test func trashListsRestoresAndSmartShowsCounts() async throws {
        let (library, assets) = try await ModelLibrary.make()
        let plain = try #require(assets["plain"])
        _ = try photolib(library, ["trash", plain])
        let trash = try photolib(library, ["trash"])
        #expect(trash.contains(short(plain)) && trash.contains("trashed.jpg") && trash.contains("plain.jpg"))
        var smart = try photolib(library, ["smart"]).split(separator: "\n").map(String.init)
        #expect(smart.contains { $0.hasSuffix("Recently Deleted") && $0.contains(" 2 ") })
        #expect(smart.contains { $0.hasSuffix("Library") && $0.contains(" 9 ") })
        _ = try photolib(library, ["restore", plain])
        #expect(!(try photolib(library, ["trash"])).contains(short(plain)))
        smart = try photolib(library, ["smart"]).split(separator: "\n").map(String.init)
        #expect(smart.contains { $0.hasSuffix("Library") && $0.contains(" 10 ") && $0.contains("2023-12-31 23:00:00") })
        _ = try photolib(library, ["trash", "--permanently", "--yes", plain])
        #expect(try await library.fetchIds(AssetQuery(ids: [plain], includeTrashed: true)).isEmpty)
    }
}
