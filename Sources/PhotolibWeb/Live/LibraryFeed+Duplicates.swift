import CompactJSON
import NIOCore
import PhotoLibrary

/// The Duplicates view (CONTRACT §17): the groups of copies of one photo, each best first, fetched from the daemon
/// when a page asks and again, for the pages that show them, after every change of the library's assets or
/// collections (a merge, a trashed copy, an import whose fingerprint finds a copy).
extension LibraryFeed {
    /// The library's groups of duplicates, in the Duplicates album's order.
    struct DuplicateList: Sendable, Equatable {
        var groups: [DuplicateGroup]
        /// The changes (`duplicateChanges`) this list is current for.
        var generation: Int
        var token: String?

        static func == (left: DuplicateList, right: DuplicateList) -> Bool {
            left.groups == right.groups
        }
    }

    /// How long a refresh waits for more changes (an import's run of them) before it asks the daemon.
    static let duplicatesQuietPeriod = Duration.milliseconds(200)

    /// `GET /api/duplicates`: `{token, groups: [{keptBecause, members}]}` (see `DuplicateGroup.write`).
    func duplicatesJSON() async throws(GalleryError) -> [UInt8] {
        PageEvent.duplicatesJSON(try await currentDuplicates())
    }

    func currentDuplicates() async throws(GalleryError) -> DuplicateList {
        if let duplicates, duplicates.generation == duplicateChanges { return duplicates }
        return try await fetchDuplicateList()
    }

    private func fetchDuplicateList() async throws(GalleryError) -> DuplicateList {
        let generation = duplicateChanges
        let token = token
        let ids = try await connections.withLibrary { library throws(PhotoLibraryError) in
            try await library.fetchDuplicates()
        }
        let members = try await connections.fetchAssets(ids.flatMap { $0 }, DuplicateGroup.Member.init)
        let list = DuplicateList(
            groups: DuplicateGroup.groups(ids, assets: members), generation: generation, token: token)
        if (duplicates?.generation ?? -1) <= generation { duplicates = list }
        return list
    }

    /// A page's stream for the Duplicates view: the groups now, and again whenever they change.
    func subscribeToDuplicates(_ page: PageMailbox) async {
        guard let list = try? await currentDuplicates() else {
            waitingPages[ObjectIdentifier(page)] = page
            return
        }
        duplicatePages[ObjectIdentifier(page)] = page
        if list == duplicatesPosted { page.post(PageEvent.duplicates(list)) } else { postDuplicates(list) }
    }

    /// Called for every change of the library's assets or collections: a group may have formed, changed or gone, so
    /// the pages that show the groups get them again.
    func duplicatesChanged() {
        duplicateChanges += 1
        guard !duplicatePages.isEmpty, duplicatesRefresh == nil else { return }
        duplicatesRefresh = Task { await refreshDuplicates() }
    }

    /// Fetches the groups until they are current for the latest change, telling the pages when they differ.
    private func refreshDuplicates() async {
        defer { duplicatesRefresh = nil }
        var list: DuplicateList
        repeat {
            try? await Task.sleep(for: Self.duplicatesQuietPeriod)
            guard !duplicatePages.isEmpty, let fetched = try? await fetchDuplicateList() else { return }
            list = fetched
            postDuplicates(list)
        } while list.generation != duplicateChanges
    }

    /// Sends the groups to every page that shows them, when they differ from what the pages were sent last.
    private func postDuplicates(_ list: DuplicateList) {
        guard list != duplicatesPosted else { return }
        duplicatesPosted = list
        let event = PageEvent.duplicates(list)
        for page in duplicatePages.values { page.post(event) }
    }
}

extension PageEvent {
    /// `duplicates`: `{token, groups}` as `GET /api/duplicates` answers.
    static func duplicates(_ list: LibraryFeed.DuplicateList) -> ByteBuffer {
        event("duplicates", id: nil, bytes: duplicatesJSON(list))
    }

    static func duplicatesJSON(_ list: LibraryFeed.DuplicateList) -> [UInt8] {
        var json = JSONWriter(capacity: 256 + list.groups.count * 600)
        json.beginObject()
        json.key("token"); json.optional(list.token) { $0.string($1) }
        json.key("groups"); json.array(list.groups) { json, group in group.write(to: &json) }
        json.endObject()
        return json.bytes
    }
}
