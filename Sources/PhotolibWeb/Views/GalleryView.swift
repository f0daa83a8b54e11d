import PhotoLibrary

/// The tiles of every asset some open view holds, by id: one copy whichever views show the asset.
typealias TileStore = [String: GalleryTile]

/// One list of assets a page shows (the timeline, an album, a search), kept in the daemon's order and cut into the
/// sections the page lays out and loads one by one: calendar days, or runs of a fixed length for an album's own order.
///
/// The view remembers in which revision each section last changed, so that a page that was away can be sent only
/// the sections that changed since the token it last saw.
struct GalleryView: Sendable {
    enum Grouping: Sendable, Hashable {
        /// A section per calendar day (the result is in date order).
        case day
        /// Sections of `length` assets in the result's order (an album's own order has no days to follow).
        case run(length: Int)
    }

    struct Section: Sendable, Hashable {
        var key: String
        var range: Range<Int>
        var count: Int { range.count }
    }

    /// What one applied change did to the view's sections.
    struct Update: Sendable, Hashable {
        /// The list of sections (keys or counts) changed: the page rebuilds its index.
        var sectionsChanged: Bool
        /// Sections whose members changed, by key (those that still exist).
        var changedKeys: [String]
    }

    let grouping: Grouping
    private(set) var ids: [String]
    private(set) var sections: [Section] = []
    private var sectionIndex: [String: Int] = [:]
    /// The view's revision: it grows by one with every change applied.
    private(set) var revision = 0
    private var sectionRevisions: [String: Int] = [:]
    /// The revision each recent library token left the view at, for catching up; bounded.
    private var tokenRevisions: [String: Int] = [:]
    private var tokenOrder: [String] = []
    static let rememberedTokens = 4096
    private(set) var token: String

    init(ids: [String], grouping: Grouping, token: String, tiles: TileStore) {
        self.ids = ids
        self.grouping = grouping
        self.token = token
        rebuildSections(tiles: tiles)
        remember(token)
    }

    func section(forKey key: String) -> Section? {
        sectionIndex[key].map { sections[$0] }
    }

    /// The keys of the sections that the positions `change` names in the previous result are in; call it before
    /// the tile store takes the changed assets' new tiles (a changed date moves a tile to another day).
    func keysTouched(before change: FetchResultChange, tiles: TileStore) -> Set<String> {
        if change.ids != nil { return Set(sections.map(\.key)) }
        let positions = (change.removedIndexes ?? []) + (change.changedIndexesBefore ?? []) + (change.moves ?? []).map(\.from)
        return keys(at: positions, tiles: tiles)
    }

    /// Applies the daemon's change details for this view's query; `tiles` already holds every inserted and changed
    /// asset, and `touchedBefore` comes from `keysTouched(before:tiles:)`. Returns which sections changed.
    mutating func apply(_ change: FetchResultChange, touchedBefore: Set<String>, token newToken: String,
                        tiles: TileStore) -> Update {
        let oldSections = sections
        var touched = touchedBefore
        ids = change.applied(to: ids)
        if change.ids == nil {
            let positions = (change.insertedIndexes ?? []) + (change.changedIndexes ?? []) + (change.moves ?? []).map(\.to)
            touched.formUnion(keys(at: positions, tiles: tiles))
        }
        rebuildSections(tiles: tiles)
        if change.ids != nil {
            touched.formUnion(sections.map(\.key))
        } else if case .run = grouping, let first = touched.compactMap({ Int($0) }).min() {
            // Runs after the first touched one shift by what was inserted or removed before them.
            touched.formUnion(sections.map(\.key).filter { (Int($0) ?? 0) > first })
        }
        let sectionsChanged = oldSections.map(\.key) != sections.map(\.key) || oldSections.map(\.count) != sections.map(\.count)
        return record(touched, sectionsChanged: sectionsChanged, token: newToken)
    }

    /// Marks the sections holding `changedIds` as changed (assets whose tiles changed without a change of this view's
    /// result, e.g. a favorite in a view not ordered by it).
    mutating func touch(_ changedIds: Set<String>, token newToken: String) -> Update? {
        let keys = Set(sections.filter { section in ids[section.range].contains { changedIds.contains($0) } }.map(\.key))
        guard !keys.isEmpty else { return nil }
        return record(keys, sectionsChanged: false, token: newToken)
    }

    private mutating func record(_ touched: Set<String>, sectionsChanged: Bool, token newToken: String) -> Update {
        revision += 1
        let changedKeys = sections.map(\.key).filter { touched.contains($0) }
        for key in changedKeys { sectionRevisions[key] = revision }
        token = newToken
        remember(newToken)
        return Update(sectionsChanged: sectionsChanged, changedKeys: changedKeys)
    }

    /// The sections that changed after `token` was current, or nil when the view no longer knows that token.
    func sectionsChanged(since token: String) -> [String]? {
        guard let since = tokenRevisions[token] else { return nil }
        return sections.map(\.key).filter { (sectionRevisions[$0] ?? 0) > since }
    }

    private func keys(at positions: [Int], tiles: TileStore) -> Set<String> {
        var keys = Set<String>()
        for position in positions where ids.indices.contains(position) {
            switch grouping {
            case .day: keys.insert(tiles[ids[position]]?.day ?? "undated")
            case .run(let length): keys.insert(String(position / length))
            }
        }
        return keys
    }

    private mutating func rebuildSections(tiles: TileStore) {
        sections.removeAll(keepingCapacity: true)
        switch grouping {
        case .run(let length):
            for start in stride(from: 0, to: ids.count, by: length) {
                sections.append(Section(key: String(start / length), range: start..<min(start + length, ids.count)))
            }
        case .day:
            var start = 0
            var seen = Set<String>()
            while start < ids.count {
                let day = tiles[ids[start]]?.day ?? "undated"
                var end = start + 1
                while end < ids.count, (tiles[ids[end]]?.day ?? "undated") == day { end += 1 }
                // A day met twice (an order not by date) gets a key of its own the second time.
                var key = day
                var repeatCount = 1
                while seen.contains(key) {
                    repeatCount += 1
                    key = "\(day)~\(repeatCount)"
                }
                seen.insert(key)
                sections.append(Section(key: key, range: start..<end))
                start = end
            }
        }
        sectionIndex = Dictionary(uniqueKeysWithValues: sections.enumerated().map { ($1.key, $0) })
    }

    private mutating func remember(_ token: String) {
        guard tokenRevisions[token] == nil else { return }
        tokenRevisions[token] = revision
        tokenOrder.append(token)
        if tokenOrder.count > Self.rememberedTokens {
            let forgotten = tokenOrder.prefix(Self.rememberedTokens / 2)
            for old in forgotten { tokenRevisions[old] = nil }
            tokenOrder.removeFirst(forgotten.count)
        }
    }
}
