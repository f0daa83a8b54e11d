import Foundation
import PhotoLibrary
import TestSupport
import Testing

/// Duplicates on the command line (CONTRACT §17): `photolib duplicates` lists the groups best first with their sizes
/// and dates, and `photolib duplicates merge` merges the groups its ids name, or all, against a real daemon and copies
/// of scikit-image's photographs made with vips and exiftool.
@Suite(.serialized)
struct DuplicateCommandLineTests {
    private func photolib(_ daemon: DaemonProcess, _ arguments: [String], checked: Bool = true) throws -> ToolResult {
        try runTool(
            DaemonProcess.productsDirectory + "/photolib", ["--socket", daemon.socketPath] + arguments,
            environment: ProcessInfo.processInfo.environment.filter { $0.key != "COLUMNS" }, checked: checked)
    }

    /// A table's lines as cells: the columns are two or more spaces apart.
    private static func cells(_ output: String) -> [[String]] {
        output.split(separator: "\n").map {
            $0.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    /// The Recently Deleted assets among `ids`.
    private static func trashed(_ ids: [String], in client: PhotoLibrary) async throws -> Set<String> {
        let assets = try await client.fetchAllAssets(matching: AssetQuery(ids: ids, includeTrashed: true)).assets
        return Set(assets.filter(\.isTrashed).map(\.id))
    }

    @Test func duplicatesAreListedBestFirstAndMergedByAMembersIdOrAllAtOnce() async throws {
        let samples = try SamplePhotos.folder()
        let library = try await ImageLibrary.start()
        let file = library.photos.file
        let vips = "/usr/bin/vips"
        try runTool(vips, ["copy", samples + "/chelsea.png", file("cat.jpg") + "[Q=92]"])
        try runTool(vips, ["copy", file("cat.jpg"), file("cat-q70.jpg") + "[Q=70]"])
        try runTool(vips, ["resize", file("cat.jpg"), file("cat-half.jpg") + "[Q=92]", "0.5"])
        try runTool(vips, ["copy", samples + "/coffee.png", file("coffee.jpg") + "[Q=92]"])
        try FileManager.default.copyItem(atPath: file("coffee.jpg"), toPath: file("coffee-tagged.jpg"))
        try runTool(
            "/usr/bin/exiftool", ["-q", "-overwrite_original", "-Artist=Someone Else", file("coffee-tagged.jpg")])
        try runTool(vips, ["copy", samples + "/astronaut.png", file("astronaut.jpg") + "[Q=92]"])
        let names = ["cat.jpg", "cat-q70.jpg", "cat-half.jpg", "coffee.jpg", "coffee-tagged.jpg", "astronaut.jpg"]
        let ids = Dictionary(uniqueKeysWithValues: zip(names, try await library.importByReference(names.map(file))))
        let client = library.client
        let daemon = library.daemon
        let found = try await eventually { () -> [[String]]? in
            let groups = try await client.fetchDuplicates()
            return groups.count == 2 && groups.joined().count == 5 ? groups : nil
        }
        let groups = try #require(found, "no duplicates found; log:\n\(daemon.log())")
        let cats = [ids["cat.jpg"]!, ids["cat-q70.jpg"]!, ids["cat-half.jpg"]!]
        let coffees = [ids["coffee-tagged.jpg"]!, ids["coffee.jpg"]!]
        try #require(Set(groups) == [cats, coffees], "\(groups)")
        let fetched = try await client.fetchAllAssets(matching: AssetQuery(ids: cats + coffees)).assets
        let assets = Dictionary(uniqueKeysWithValues: fetched.map { ($0.id, $0) })

        // The table: each group best first, the one a merge keeps marked, with sizes and dates; then the counts.
        let listing = try photolib(daemon, ["duplicates"])
        let table = Self.cells(listing.output)
        #expect(table.first == ["GROUP", "ID", "PIXELS", "BYTES", "TAKEN (LOCAL TIME)", "MERGE", "FILENAME"])
        let expectedRows = groups.enumerated().flatMap { number, group in
            group.enumerated().map { index, id in
                let asset = assets[id]!
                return [
                    String(number + 1), String(id.prefix(8)), "\(asset.pixelWidth)x\(asset.pixelHeight)",
                    String(asset.creationDate!.rfc3339.prefix(19)).replacingOccurrences(of: "T", with: " "),
                    index == 0 ? "keep" : "trash", asset.originalFilename,
                ]
            }
        }
        // Every cell but the bytes, which are checked to be there and in `ls -h`'s form.
        let rows = table.dropFirst().prefix(5)
        #expect(rows.map { Array($0[0..<3] + $0[4...]) } == expectedRows, "\(listing.output)")
        #expect(rows.allSatisfy { $0[3].wholeMatch(of: /[0-9.]+[KM]?/) != nil }, "\(listing.output)")
        #expect(table.count == 7, "\(listing.output)")
        let summary =
            "\n2 groups of duplicates, 3 copies: 'photolib duplicates merge --yes' keeps the first of each and moves "
            + "the others to Recently Deleted\n"
        #expect(listing.output.hasSuffix(summary), "\(listing.output)")
        #expect(!listing.output.contains("astronaut.jpg"))

        // --json: a group a line, with the one a merge keeps, its copies and their Asset objects.
        let json = try photolib(daemon, ["duplicates", "--json"]).output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(json.map { $0["keep"] as? String } == groups.map { $0.first })
        #expect(json.map { $0["copies"] as? [String] ?? [] } == groups.map { Array($0.dropFirst()) })
        let members = json.map { ($0["assets"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "" } }
        #expect(members == groups)
        let first = try #require((json.first?["assets"] as? [[String: Any]])?.first)
        #expect(first["pixelWidth"] as? Int == assets[groups[0][0]]?.pixelWidth && first["fileSize"] is Int)

        // A merge by one member's id, the start of the half-size copy's: without --yes it shows the merge and
        // changes nothing.
        let halfSize = String(ids["cat-half.jpg"]!.prefix(8))
        let unconfirmed = try photolib(daemon, ["duplicates", "merge", halfSize], checked: false)
        #expect(unconfirmed.status != 0, "\(unconfirmed.output)")
        let plan =
            "would keep \(cats[0].prefix(8)) cat.jpg, trash \(cats[1].prefix(8)) cat-q70.jpg, "
            + "\(cats[2].prefix(8)) cat-half.jpg\n"
        #expect(unconfirmed.output == plan, "\(unconfirmed.output)")
        #expect(
            unconfirmed.errors.contains("nothing merged (1 group of duplicates, 2 copies): add --yes"),
            "\(unconfirmed.errors)")
        #expect(Set(try await client.fetchDuplicates()) == [cats, coffees])
        #expect(try await Self.trashed(cats + coffees, in: client).isEmpty)

        // With --yes: the best kept, the copies in Recently Deleted, and how to bring one back.
        let merged = try photolib(daemon, ["duplicates", "merge", halfSize, "--yes"])
        #expect(
            merged.output.contains(
                "kept \(cats[0].prefix(8)) cat.jpg, moved to Recently Deleted: \(cats[1].prefix(8)) cat-q70.jpg, "
                    + "\(cats[2].prefix(8)) cat-half.jpg\n"), "\(merged.output)")
        #expect(
            merged.output.contains(
                "merged 1 group; 2 copies moved to Recently Deleted ('photolib restore ID' brings one back"),
            "\(merged.output)")
        #expect(try await client.fetchDuplicates() == [coffees])
        #expect(try await Self.trashed(cats + coffees, in: client) == Set(cats.dropFirst()))

        // Ids that name no group: a copy now in Recently Deleted, a photo without duplicates, an unknown id. Each is
        // refused with what is wrong, and nothing changes.
        let refusals = [
            (String(cats[1].prefix(8)), "cat-q70.jpg is in Recently Deleted, not among the duplicates"),
            (ids["astronaut.jpg"]!, "astronaut.jpg has no duplicates"),
            ("0badc0de-0000-4000-8000-000000000000", "no asset has the id '0badc0de-0000-4000-8000-000000000000'"),
        ]
        for (id, reason) in refusals {
            let refused = try photolib(daemon, ["duplicates", "merge", id, "--yes"], checked: false)
            #expect(refused.status != 0 && refused.output.isEmpty, "\(id): \(refused.output)")
            #expect(refused.errors.contains(reason), "\(id): \(refused.errors)")
        }
        #expect(try await client.fetchDuplicates() == [coffees])

        // No ids: every group.
        let all = try photolib(daemon, ["duplicates", "merge", "--yes"])
        #expect(
            all.output.contains(
                "kept \(coffees[0].prefix(8)) coffee-tagged.jpg, moved to Recently Deleted: "
                    + "\(coffees[1].prefix(8)) coffee.jpg\n"), "\(all.output)")
        #expect(all.output.contains("merged 1 group; 1 copy moved to Recently Deleted"), "\(all.output)")
        #expect(try await client.fetchDuplicates().isEmpty)
        let none = try photolib(daemon, ["duplicates"])
        #expect(none.output.isEmpty && none.errors.contains("no duplicates"), "\(none.output)")
        let nothing = try photolib(daemon, ["duplicates", "merge", "--yes"])
        #expect(nothing.output.isEmpty && nothing.errors.contains("no duplicates to merge"), "\(nothing.errors)")

        // The hint holds: a restored copy is back in its group.
        _ = try photolib(daemon, ["restore", halfSize])
        let restored = try photolib(daemon, ["duplicates", "--json"]).output.split(separator: "\n")
        #expect(restored.count == 1 && restored[0].contains("\"copies\":[\"\(cats[2])\"]"), "\(restored)")
        try await daemon.stop()
    }
}
