import Foundation
import HTTPTypes
import Logging
import NIOCore
import PhotoLibrary
import TestSupport
import Testing

@testable import PhotolibWeb

/// The gallery's Duplicates view (CONTRACT §17) on copies of real photographs (scikit-image's, which scripts/setup
/// installs) made with the `vips` command: the groups best first with why the best is kept, a merge through the change
/// route, the refusals of a merge that is not of one group, and the groups kept live for the pages that show them.
@Suite(.serialized)
struct DuplicateRouteTests {
    /// Writes `arguments` through the `vips` command into the gallery's folder `copies`; returns the path written.
    static func vips(
        _ operation: String, _ source: String, _ name: String, _ more: String..., in gallery: GalleryUnderTest
    )
        throws -> String
    {
        let folder = gallery.daemon.directory + "/copies"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let target = "\(folder)/\(name)"
        try runTool("/usr/bin/vips", [operation, source, target + "[Q=\(name.contains("q70") ? 70 : 92)]"] + more)
        return target
    }

    /// The cat at quality 92 and re-saved at 70 (one group, kept for its larger file), the astronaut and a copy scaled
    /// to half (one group, kept for its pixels); their ids in that order.
    static func copies(in gallery: GalleryUnderTest) async throws -> [String] {
        let samples = try SamplePhotos.folder()
        let cat = try vips("copy", samples + "/chelsea.png", "cat.jpg", in: gallery)
        let astronaut = try vips("copy", samples + "/astronaut.png", "astronaut.jpg", in: gallery)
        return try await gallery.importing([
            cat, try vips("copy", cat, "cat-q70.jpg", in: gallery),
            astronaut, try vips("resize", astronaut, "astronaut-half.jpg", "0.5", in: gallery),
        ])
    }

    @Test func theGroupsComeBestFirstWithWhyTheBestIsKeptAndMergeThroughTheChangeRoute() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 1)
        let ids = try await Self.copies(in: gallery)
        try await gallery.test { client in
            let found = try await eventually { () -> [[String: Any]]? in
                let groups = try await Self.groups(client, gallery)
                return groups.count == 2 ? groups : nil
            }
            let groups = try #require(found, "the two groups, once the fingerprints are made")
            #expect(Set(groups.map(Self.memberIds)) == [[ids[0], ids[1]], [ids[2], ids[3]]], "best first")
            let cat = try #require(groups.first { Self.memberIds($0).first == ids[0] })
            let astronaut = try #require(groups.first { Self.memberIds($0).first == ids[2] })
            #expect(cat["keptBecause"] as? String == "fileSize", "the pixels tie: the larger file")
            #expect(astronaut["keptBecause"] as? String == "pixels")
            let best = try #require((astronaut["members"] as? [[String: Any]])?.first)
            #expect(best["width"] as? Int == 512 && best["height"] as? Int == 512)
            #expect(best["filename"] as? String == "astronaut.jpg")
            let catMembers = try #require(cat["members"] as? [[String: Any]])
            #expect(catMembers.map { $0["width"] as? Int } == [451, 451])
            let sizes = catMembers.compactMap { $0["fileSize"] as? Int }
            #expect(sizes.count == 2 && sizes[0] > sizes[1])
            #expect(catMembers.allSatisfy { $0["addedDate"] is String && $0["creationDate"] != nil })
            let version = try #require(best["version"] as? String)
            let thumbnail = try await client.execute(
                uri: "/image/\(ids[2])/\(version)/256", method: .get, headers: gallery.signedIn)
            #expect(thumbnail.status == .ok)

            // The astronaut's group merged: the copy goes to Recently Deleted, the group leaves the list.
            let merged = try await Self.change(
                ["action": "mergeDuplicates", "ids": [ids[2], ids[3]]], client, gallery)
            #expect(merged.status == .ok, "\(String(buffer: merged.body))")
            #expect(
                try await eventually {
                    try await Self.groups(client, gallery).map { Self.memberIds($0).first } == [ids[0]]
                })
            let library = try await PhotoLibrary.connect(socketPath: gallery.daemon.socketPath)
            let states = try await library.fetchAssets(
                matching: AssetQuery(ids: [ids[2], ids[3]], includeTrashed: true)
            ).assets
            await library.close()
            #expect(
                Dictionary(uniqueKeysWithValues: states.map { ($0.id, $0.isTrashed) }) == [ids[2]: false, ids[3]: true])

            // Not one group (the page fell behind, or was never right): the daemon's refusal, as a message to show.
            for (body, message) in [
                (["action": "mergeDuplicates", "ids": [ids[0], ids[2]]], "one group"),
                (["action": "mergeDuplicates", "ids": [ids[0], ids[3]]], "one group"),
                (["action": "mergeDuplicates", "ids": [ids[0]]], "two or more"),
                (["action": "mergeDuplicates", "ids": [ids[0], ids[0]]], "two or more"),
                (["action": "mergeDuplicates", "ids": [ids[0], "../x"]], "malformed"),
            ] as [([String: Any], String)] {
                let refused = try await Self.change(body, client, gallery)
                #expect(refused.status == .badRequest, "\(body)")
                let error = try JSONSerialization.jsonObject(with: Data(buffer: refused.body)) as? [String: String]
                #expect(error?["error"]?.contains(message) == true, "\(error ?? [:])")
            }
            #expect(try await Self.groups(client, gallery).count == 1, "a refused merge changes nothing")

            let notAList = try await client.execute(
                uri: "/api/views/duplicates", method: .get, headers: gallery.signedIn)
            #expect(notAList.status == .notFound)
        }
    }

    @Test func aPageShowingTheDuplicatesIsToldOfAGroupThatFormsAndOfItsMerge() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 1)
        let connections = LibraryConnections(socketPath: gallery.daemon.socketPath)
        let feed = LibraryFeed(
            connections: connections, recentThumbnails: RecentThumbnails(), logger: Logger(label: "duplicates-test"))
        let running = Task { await feed.run() }
        let page = PageMailbox()
        let patience = Task {
            try await Task.sleep(for: .seconds(60))
            page.close()
        }
        let spec = try #require(ViewSpec(key: "duplicates"))
        await feed.subscribe(page, to: spec, lastToken: nil)
        var seen: [[[String]]] = []
        func waitFor(_ wanted: [[String]]) async throws {
            while seen.last != wanted, let events = await page.events() {
                for event in events {
                    let text = String(buffer: event)
                    guard text.hasPrefix("event: duplicates\n"),
                        let data = text.split(separator: "data: ", maxSplits: 1).last,
                        let object = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any],
                        let groups = object["groups"] as? [[String: Any]]
                    else { continue }
                    seen.append(groups.map(Self.memberIds))
                }
            }
            #expect(seen.last == wanted, "\(seen)")
        }
        try await waitFor([])
        let samples = try SamplePhotos.folder()
        let cat = try Self.vips("copy", samples + "/chelsea.png", "cat.jpg", in: gallery)
        let ids = try await gallery.importing([cat, try Self.vips("copy", cat, "cat-q70.jpg", in: gallery)])
        try await waitFor([ids])
        let library = try await PhotoLibrary.connect(socketPath: gallery.daemon.socketPath)
        var merge = PhotoLibrary.ChangeBuilder()
        merge.mergeDuplicates(ids)
        _ = try await library.performChanges(merge)
        await library.close()
        try await waitFor([])
        patience.cancel()
        await feed.unsubscribe(page, from: spec)
        running.cancel()
        _ = await running.value
        await connections.closeAll()
    }

    static func memberIds(_ group: [String: Any]) -> [String] {
        (group["members"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    static func groups(_ client: GalleryClient, _ gallery: GalleryUnderTest) async throws
        -> [[String: Any]]
    {
        let answer = try PlaceRouteTests.json(
            try await client.execute(uri: "/api/duplicates", method: .get, headers: gallery.signedIn))
        return try #require(answer["groups"] as? [[String: Any]])
    }

    static func change(_ body: [String: Any], _ client: GalleryClient, _ gallery: GalleryUnderTest)
        async throws -> GalleryResponse
    {
        var headers = gallery.signedIn
        headers[.contentType] = "application/json"
        return try await client.execute(
            uri: "/api/changes", method: .post, headers: headers,
            body: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
    }
}

/// Why a group's best member is kept, told from the members as the daemon orders them.
struct DuplicateGroupTests {
    static func member(_ id: String, _ width: Int, _ height: Int, bytes: Int64, added: Double) -> DuplicateGroup.Member
    {
        DuplicateGroup.Member(
            Asset(
                id: id, mediaType: .image, pixelWidth: width, pixelHeight: height, creationDate: nil,
                modificationDate: nil, addedDate: Timestamp(secondsSince1970: added), location: nil,
                originalFilename: "\(id).jpg", fileSize: bytes))
    }

    static func group(_ members: DuplicateGroup.Member...) -> DuplicateGroup {
        DuplicateGroup(members: members)
    }

    @Test(
        arguments: [
            (
                group(member("a", 4032, 3024, bytes: 10, added: 2), member("b", 2016, 1512, bytes: 90, added: 1)),
                "pixels"
            ),
            (
                group(member("a", 3024, 4032, bytes: 90, added: 2), member("b", 4032, 3024, bytes: 10, added: 1)),
                "fileSize"
            ),
            (
                group(member("a", 800, 600, bytes: 50, added: 1), member("b", 800, 600, bytes: 50, added: 2)),
                "addedDate"
            ),
            (
                group(member("a", 800, 600, bytes: 50, added: 1), member("b", 800, 600, bytes: 50, added: 1)),
                "addedDate"
            ),
            // Out of the daemon's order (the best was cropped since the group was made): no reason is made up.
            (group(member("a", 400, 300, bytes: 50, added: 1), member("b", 800, 600, bytes: 10, added: 2)), nil),
            (group(member("a", 800, 600, bytes: 10, added: 1), member("b", 800, 600, bytes: 50, added: 2)), nil),
        ] as [(DuplicateGroup, String?)])
    func theReasonIsWhatSetsTheBestBeforeTheNext(group: DuplicateGroup, reason: String?) {
        #expect(group.keptBecause?.rawValue == reason)
    }

    @Test func membersGoneSinceTheGroupsWereFetchedAreLeftOutAndSoAreGroupsLeftAlone() {
        let found =
            [Self.member("b", 8, 6, bytes: 1, added: 1), Self.member("a", 8, 6, bytes: 2, added: 1)]
            + [Self.member("c", 8, 6, bytes: 3, added: 1), Self.member("e", 8, 6, bytes: 3, added: 1)]
        let groups = DuplicateGroup.groups([["a", "b", "x"], ["c", "d"], ["e", "f", "g"]], assets: found)
        #expect(groups.map { $0.members.map(\.tile.id) } == [["a", "b"]])
    }
}

extension DuplicateGroup: CustomTestStringConvertible {
    public var testDescription: String {
        members.map {
            "\($0.tile.id): \($0.pixelWidth)×\($0.pixelHeight), \($0.fileSize) bytes, added at \($0.addedDate.secondsSince1970)"
        }
        .joined(separator: "; ")
    }
}
