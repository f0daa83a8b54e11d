import ArgumentParser
import PhotoLibrary

struct DuplicatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "duplicates",
        abstract: "List the groups of duplicate photos, best first, and merge them.",
        discussion: """
            Copies of one picture (re-saved, re-compressed, resized or re-tagged) make a group. Its best member \
            comes first: the most pixels, then the largest file, then the earliest added. A merge keeps it, gives it \
            what the copies had (albums, keywords, favorite, the highest rating, a title, caption and location \
            where it had none, the earliest date) and moves the copies to Recently Deleted, from where 'photolib \
            restore' brings one back into its albums.
            """,
        subcommands: [List.self, Merge.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the groups of duplicates with their sizes and dates, the one a merge keeps first.")

        @OptionGroup var connection: ConnectionOptions

        @Flag(help: "Print each group as one line of JSON: keep (an id), copies (ids) and assets (Asset objects).")
        var json = false

        func run() async throws {
            let library = try await connection.connect()
            let groups = try await DuplicateGroup.fetchAll(from: library)
            await library.close()
            if json {
                for group in groups { try Console.printJSON(group) }
                return
            }
            var table = TextTable(header: ["GROUP", "ID", "PIXELS", "BYTES", "TAKEN (LOCAL TIME)", "MERGE", "FILENAME"])
            for (number, group) in zip(1..., groups) {
                for (index, asset) in group.assets.enumerated() {
                    table.append([
                        String(number), Display.shortId(asset.id), "\(asset.pixelWidth)x\(asset.pixelHeight)",
                        Display.bytes(asset.fileSize), Display.localTime(asset.creationDate),
                        index == 0 ? "keep" : "trash", asset.originalFilename,
                    ])
                }
            }
            table.print(empty: "no duplicates")
            guard !groups.isEmpty else { return }
            Console.print(
                "\(DuplicateGroup.described(groups)): 'photolib duplicates merge --yes' keeps the first of each "
                    + "and moves the others to Recently Deleted")
        }
    }

    struct Merge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Merge groups of duplicates: keep the best of each and move the others to Recently Deleted.",
            discussion: """
                Any member of a group names the group; without ids, every group is merged. Without --yes the merge \
                is shown first and asked on a terminal; without a terminal nothing changes.
                """
        )

        @OptionGroup var connection: ConnectionOptions

        @Argument(
            help: ArgumentHelp(
                "A member of each group to merge (an id or the start of one); none: every group.",
                valueName: "asset-id"))
        var assets: [String] = []

        @Flag(name: [.short, .long], help: "Merge without asking first (needed without a terminal to ask on).")
        var yes = false

        func run() async throws {
            let library = try await connection.connect()
            let groups = try await DuplicateGroup.fetchAll(from: library)
            let merged = try await chosen(among: groups, in: library)
            guard !merged.isEmpty else {
                Console.printError("no duplicates to merge\n")
                return
            }
            let what = DuplicateGroup.described(merged)
            if !yes {
                for group in merged {
                    Console.print("would keep \(group.kept.summary), trash \(group.copiesSummary)")
                }
                try Confirmation.ask(
                    "Merge \(what), moving the copies to Recently Deleted?",
                    withoutTerminal: "nothing merged (\(what)): add --yes to merge without a terminal to ask on")
            }
            var changes = PhotoLibrary.ChangeBuilder()
            for group in merged { changes.mergeDuplicates(group.assets.map(\.id)) }
            do {
                _ = try await library.performChanges(changes)
            } catch {
                guard error.code == .invalidChange else { throw error }
                throw CommandFailure(
                    "nothing merged: the duplicates changed while this command ran (\(error.message)); "
                        + "'photolib duplicates' lists them as they are now")
            }
            await library.close()
            for group in merged {
                Console.print("kept \(group.kept.summary), moved to Recently Deleted: \(group.copiesSummary)")
            }
            let copies = merged.reduce(0) { $0 + $1.copies.count }
            Console.print(
                "merged \(Display.count(merged.count, "group")); \(Display.count(copies, "copy", plural: "copies")) "
                    + "moved to Recently Deleted ('photolib restore ID' brings one back, into its albums)")
        }

        /// The groups the ids on the command line name, in the listing's order, or all of them without ids.
        private func chosen(among groups: [DuplicateGroup], in library: PhotoLibrary) async throws
            -> [DuplicateGroup]
        {
            guard !assets.isEmpty else { return groups }
            var named = Set<Int>()
            for asset in try await References(library: library).assets(assets) {
                guard let index = groups.firstIndex(where: { $0.assets.contains { $0.id == asset.id } }) else {
                    throw CommandFailure(Self.notDuplicated(asset))
                }
                named.insert(index)
            }
            return named.sorted().map { groups[$0] }
        }

        /// Why `asset` is in no group of duplicates.
        private static func notDuplicated(_ asset: Asset) -> String {
            if asset.isTrashed { return "\(asset.summary) is in Recently Deleted, not among the duplicates" }
            if asset.isHidden { return "\(asset.summary) is hidden: hidden assets are not among the duplicates" }
            return "\(asset.summary) has no duplicates; 'photolib duplicates' lists the groups"
        }
    }
}

/// A group of duplicates with its members, best first: the one a merge keeps, then its copies.
struct DuplicateGroup: Encodable {
    let assets: [Asset]

    var kept: Asset { assets[0] }
    var copies: ArraySlice<Asset> { assets.dropFirst() }

    /// The copies as a command lists them: `9c41aa00 cat-q70.jpg, 77aa1234 cat-half.jpg`.
    var copiesSummary: String { copies.map(\.summary).joined(separator: ", ") }

    private enum CodingKeys: String, CodingKey {
        case keep, copies, assets
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kept.id, forKey: .keep)
        try container.encode(copies.map(\.id), forKey: .copies)
        try container.encode(assets, forKey: .assets)
    }

    /// The most ids asked for in one fetch; the daemon takes up to 30,000.
    private static let idsPerFetch = 10_000

    /// Every group of duplicates in the library, in the Duplicates album's order, with its members' assets.
    static func fetchAll(from library: PhotoLibrary) async throws -> [DuplicateGroup] {
        let groups = try await library.fetchDuplicates()
        let ids = groups.flatMap { $0 }
        var assets: [String: Asset] = [:]
        for start in stride(from: 0, to: ids.count, by: idsPerFetch) {
            let query = AssetQuery(
                ids: Array(ids[start..<min(start + idsPerFetch, ids.count)]), includeHidden: true,
                includeTrashed: true, includeAllBurstAssets: true)
            for asset in try await library.fetchAllAssets(matching: query).assets { assets[asset.id] = asset }
        }
        // An asset deleted for good between the two calls is left out, and a group needs two members.
        return groups.map { DuplicateGroup(assets: $0.compactMap { assets[$0] }) }.filter { $0.assets.count > 1 }
    }

    /// `2 groups of duplicates, 3 copies`.
    static func described(_ groups: [DuplicateGroup]) -> String {
        let copies = groups.reduce(0) { $0 + $1.copies.count }
        return Display.count(groups.count, "group") + " of duplicates, "
            + Display.count(copies, "copy", plural: "copies")
    }
}
