import Foundation
import Glibc
import PhotoLibrary
import Testing
import TestSupport

/// What a daily user does with `photolib` after the tour: hide, fix dates and places, select by query, keep
/// albums and folders, open assets and the gallery.
@Suite(.serialized)
struct DailyCommandLineTests {
    private func photolib(_ library: PopulatedDaemon, _ arguments: [String], environment: [String: String]? = nil,
                          checked: Bool = true) throws -> ToolResult {
        try runTool(DaemonProcess.productsDirectory + "/photolib", ["--socket", library.daemon.socketPath] + arguments,
                    environment: environment, checked: checked)
    }

    private func asset(_ library: PopulatedDaemon, _ id: String) async throws -> Asset {
        try #require(try await library.client.fetchAssets(matching: AssetQuery(ids: [id])).assets.first)
    }

    @Test func hideAndUnhideTakeIdsOrAQueryConfirmedWithYes() async throws {
        let library = try await PopulatedDaemon.make()
        let ids = library.assetIds
        _ = try photolib(library, ["hide", ids[0]])
        #expect(try await library.fetchIds() == [ids[1], ids[2]])
        let unconfirmed = try photolib(library, ["hide", "--where", "pixelWidth > 0"], checked: false)
        #expect(unconfirmed.status != 0 && unconfirmed.errors.contains("--where selects 2 assets: add --yes"))
        #expect(try await library.fetchIds() == [ids[1], ids[2]])
        _ = try photolib(library, ["unhide", "--where", "isHidden == YES", "--yes"])
        #expect(try await library.fetchIds() == ids)
        let nothing = try photolib(library, ["favorite", "--where", "pixelWidth > 100000", "--yes"])
        #expect(nothing.errors.contains("no asset matches"))
        let both = try photolib(library, ["favorite", ids[0], "--where", "isFavorite == NO"], checked: false)
        #expect(both.status != 0 && both.errors.contains("not both"))
        _ = try photolib(library, ["favorite", "--where", "isFavorite == NO", "--yes"])
        #expect(try await library.fetchIds(AssetQuery(predicate: "isFavorite == YES")) == ids)
    }

    @Test func editsApplyToEveryPhotoAQuerySelects() async throws {
        let library = try await PopulatedDaemon.make()
        let ids = library.assetIds
        let before = try await asset(library, ids[1])
        let unconfirmed = try photolib(library, ["edit", "--where", "creationDate >= '2024-02-02T00:00:00Z'", "--rotate", "90"],
                                       checked: false)
        #expect(unconfirmed.status != 0 && unconfirmed.errors.contains("add --yes"))
        _ = try photolib(library, ["edit", "--where", "creationDate >= '2024-02-02T00:00:00Z'", "--rotate", "90", "--yes"])
        #expect(try await library.fetchIds(AssetQuery(predicate: "hasAdjustments == YES")) == [ids[1], ids[2]])
        let turned = try await asset(library, ids[1])
        #expect(turned.pixelWidth == before.pixelHeight && turned.pixelHeight == before.pixelWidth)
    }

    @Test func trashAndRestoreSelectByQueryRestoreLookingInRecentlyDeleted() async throws {
        let library = try await PopulatedDaemon.make()
        let ids = library.assetIds
        _ = try photolib(library, ["trash", "--where", "creationDate >= '2024-02-02T00:00:00Z'", "--yes"])
        #expect(try await library.fetchIds() == [ids[0]])
        let permanently = try photolib(library, ["trash", "--permanently", ids[0]], checked: false)
        #expect(permanently.status != 0 && permanently.errors.contains("cannot be undone: add --yes"))
        _ = try photolib(library, ["restore", "--where", "creationDate < '2024-02-03T00:00:00Z'", "--yes"])
        #expect(try await library.fetchIds() == [ids[0], ids[1]])
        #expect(try await library.fetchIds(AssetQuery(predicate: "isTrashed == YES", includeTrashed: true)) == [ids[2]])
    }

    @Test func datesAreSetShiftedAndMovedToAnotherZone() async throws {
        let library = try await PopulatedDaemon.make()
        let ids = library.assetIds
        _ = try photolib(library, ["set-date", ids[0], "--to", "2023-07-14 21:30"])
        let set = try await asset(library, ids[0])
        #expect(set.creationDate?.rfc3339.hasPrefix("2023-07-14T21:30:00") == true, "\(String(describing: set.creationDate))")
        #expect(set.creationDateSource == .user)
        let before = try await asset(library, ids[1]).creationDate!
        _ = try photolib(library, ["set-date", "--where", "creationDate >= '2024-02-02T00:00:00Z'", "--shift", "+1h30m", "--yes"])
        let shifted = try await asset(library, ids[1]).creationDate!
        #expect(shifted.secondsSince1970 == before.secondsSince1970 + 5_400)
        _ = try photolib(library, ["set-date", ids[1], "--zone", "+09:00"])
        let zoned = try await asset(library, ids[1]).creationDate!
        #expect(zoned.secondsSince1970 == shifted.secondsSince1970 && zoned.rfc3339.hasSuffix("+09:00"))
        for wrong in [["--to", "2023-02-30"], ["--shift", "1h"], ["--zone", "+25:00"], []] {
            let refused = try photolib(library, ["set-date", ids[0]] + wrong, checked: false)
            #expect(refused.status != 0 && !refused.errors.isEmpty, "set-date \(wrong) was not refused")
        }
    }

    @Test func placesAreSetCopiedAndCleared() async throws {
        let library = try await PopulatedDaemon.make()
        let ids = library.assetIds
        _ = try photolib(library, ["set-location", ids[0], "--to", "48.8584,2.2945,35"])
        #expect(try await asset(library, ids[0]).location == Location(latitude: 48.8584, longitude: 2.2945, altitude: 35))
        _ = try photolib(library, ["set-location", ids[1], ids[2], "--from", ids[0]])
        #expect(try await asset(library, ids[2]).location?.latitude == 48.8584)
        let placeless = try photolib(library, ["assets", "--where", "latitude == nil"]).output
        #expect(placeless.isEmpty)
        _ = try photolib(library, ["set-location", ids[2], "--clear"])
        #expect(try await asset(library, ids[2]).location == nil)
        #expect(try photolib(library, ["set-location", ids[0], "--to", "91,0"], checked: false).status != 0)
    }

    @Test func albumsAreRenamedReorderedEmptiedAndDeleted() async throws {
        let library = try await PopulatedDaemon.make()
        let ids = library.assetIds
        let first = try photolib(library, ["album", "create", "Summer"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let second = try photolib(library, ["album", "create", "Summer"])
        let secondId = second.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(second.errors.contains(first) && second.errors.contains(secondId) && second.errors.contains("titled 'Summer'"))
        _ = try photolib(library, ["album", "rename", secondId, "Winter"])
        _ = try photolib(library, ["album", "add", "Winter"] + ids)
        _ = try photolib(library, ["album", "move-assets", "Winter", ids[2], ids[1], "--to", "0"])
        #expect(try await library.fetchIds(AssetQuery(collection: secondId)) == [ids[2], ids[1], ids[0]])
        let outOfRange = try photolib(library, ["album", "move-assets", "Winter", ids[0], "--to", "3"], checked: false)
        #expect(outOfRange.status != 0 && outOfRange.errors.contains("at most"))
        _ = try photolib(library, ["album", "remove", "Winter", "--where", "creationDate < '2024-02-02T00:00:00Z'", "--yes"])
        #expect(try await library.fetchIds(AssetQuery(collection: secondId)) == [ids[2], ids[1]])
        let stranger = try photolib(library, ["album", "remove", "Summer", ids[0]], checked: false)
        #expect(stranger.status != 0 && stranger.errors.contains("is not in the album 'Summer'"))
        _ = try photolib(library, ["album", "delete", "Summer", "Winter"])
        #expect(try await library.client.fetchCollections(matching: CollectionQuery(kind: .album)).count == 0)
        #expect(try await library.fetchIds() == ids)
    }

    @Test func foldersAreRenamedFiledAndDeletedWithTheirContentsOnceConfirmed() async throws {
        let library = try await PopulatedDaemon.make()
        let trips = try photolib(library, ["folder", "create", "Trips"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try photolib(library, ["folder", "create", "2024"])
        _ = try photolib(library, ["album", "create", "Rome", "--in", "Trips"])
        _ = try photolib(library, ["folder", "rename", "Trips", "Journeys"])
        _ = try photolib(library, ["folder", "move", "2024", "--into", "Journeys", "--at", "0"])
        let children = try await library.client.fetchCollections(matching: CollectionQuery(parent: trips)).collections
        #expect(children.map(\.title) == ["2024", "Rome"])
        let unconfirmed = try photolib(library, ["folder", "delete", "Journeys"], checked: false)
        #expect(unconfirmed.status != 0 && unconfirmed.errors.contains("2 albums and folders"))
        _ = try photolib(library, ["folder", "delete", "Journeys", "--yes"])
        #expect(try await library.client.fetchCollections(matching: CollectionQuery(topLevelUserCollections: true)).count == 0)
    }

    @Test func openHandsTheCurrentVersionToTheDesktopsViewer() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 1)
        let id = library.assetIds[0]
        // xdg-open as the desktop would run it, standing in for the viewer: it notes what it was given.
        let desktop = try TemporaryDirectory()
        try writeExecutable("#!/bin/sh\necho \"$1\" >> \(desktop.file("opened"))\n", to: desktop.file("xdg-open"))
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = desktop.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        _ = try photolib(library, ["edit", id, "--rotate", "90"])
        _ = try photolib(library, ["open", id], environment: environment)
        _ = try photolib(library, ["open", id, "--original"], environment: environment)
        let opened = try String(contentsOfFile: desktop.file("opened"), encoding: .utf8).split(separator: "\n").map(String.init)
        let edit = try await library.client.requestImageData(for: id).path
        let original = try await library.client.requestImageData(for: id, version: .original).path
        #expect(opened == [edit, original] && edit != original)
        environment["PATH"] = "/nonexistent"
        let missing = try photolib(library, ["open", id], environment: environment, checked: false)
        #expect(missing.status != 0 && missing.errors.contains("xdg-open is not installed"))
    }

    @Test func galleryPrintsTheAddressWithTheTokenPhotolibWebWrote() throws {
        let runtime = try TemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        let photolib = DaemonProcess.productsDirectory + "/photolib"
        let absent = try runTool(photolib, ["gallery"], environment: environment, checked: false)
        #expect(absent.status != 0 && absent.errors.contains("the gallery is not running") && absent.errors.contains("scripts/run-daemon"))
        try FileManager.default.createDirectory(atPath: runtime.file("photolibd"), withIntermediateDirectories: true)
        try "s3cret\n".write(toFile: runtime.file("photolibd/web-token"), atomically: true, encoding: .utf8)
        // A listening socket where the gallery would be.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        #expect(bound && listen(listener, 4) == 0)
        let port = UInt16(bigEndian: address.sin_port)
        let printed = try runTool(photolib, ["gallery", "--listen", "127.0.0.1:\(port)"], environment: environment)
        #expect(printed.output == "http://127.0.0.1:\(port)/?token=s3cret\n")
        let elsewhere = try runTool(photolib, ["gallery", "--listen", "127.0.0.1:1"], environment: environment, checked: false)
        #expect(elsewhere.status != 0 && elsewhere.errors.contains("nothing listens on 127.0.0.1:1"))
    }
}
