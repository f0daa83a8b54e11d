import PhotoLibrary

/// What a user typed for an asset, album or folder, turned into the object it names: a whole id, a unique
/// prefix of one (as git takes short hashes), or for albums and folders a unique title.
///
/// A reference to the wrong kind of object is refused by name ("… is an album, not an asset"), never as an
/// unknown id.
struct References {
    let library: PhotoLibrary

    /// The shortest id prefix accepted, so that a stray short word is not taken for an id.
    static let minimumPrefixLength = 4

    /// Every asset visible or not: hidden, trashed and burst frames can all be named.
    private static func assets(_ query: AssetQuery) -> AssetQuery {
        var query = query
        query.includeHidden = true
        query.includeTrashed = true
        query.includeAllBurstAssets = true
        return query
    }

    /// The asset `reference` names.
    func asset(_ reference: String) async throws -> Asset {
        if let asset = try await library.fetchAssets(matching: Self.assets(AssetQuery(ids: [reference]))).assets.first {
            return asset
        }
        if let prefix = Self.idPrefix(reference) {
            let matches = try await library.fetchAssets(matching: Self.assets(AssetQuery(predicate: prefix, limit: 3))).assets
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 { throw Self.ambiguous(reference, matches.map(\.id), kind: "assets") }
        }
        if let collection = try await findCollection(reference) {
            throw CommandFailure("'\(reference)' is \(collection.described(asNamed: reference)), not an asset")
        }
        if Self.isTooShortForAnId(reference) {
            throw CommandFailure("'\(reference)' is too short to name an asset: give at least \(Self.minimumPrefixLength) "
                + "characters of its id")
        }
        throw CommandFailure("no asset has the id '\(reference)'")
    }

    /// The assets `references` name, in order.
    func assets(_ references: [String]) async throws -> [Asset] {
        var assets: [Asset] = []
        for reference in references { assets.append(try await asset(reference)) }
        return assets
    }

    /// The album, folder or other collection `reference` names; refused unless its kind is one of `kinds`.
    func collection(_ reference: String, kinds: Set<CollectionKind>) async throws -> AssetCollection {
        let wanted = Self.kindNames(kinds)
        guard let collection = try await findCollection(reference) else {
            if try await library.fetchAssets(matching: Self.assets(AssetQuery(ids: [reference]))).assets.first != nil {
                throw CommandFailure("'\(reference)' is an asset, not \(wanted)")
            }
            let short = Self.isTooShortForAnId(reference)
                ? " (the start of an id needs at least \(Self.minimumPrefixLength) characters)" : ""
            throw CommandFailure("no \(Self.kindNames(kinds, article: false)) has the id or title '\(reference)'\(short)")
        }
        guard kinds.contains(collection.kind) else {
            throw CommandFailure("'\(reference)' is \(collection.described(asNamed: reference)), not \(wanted)")
        }
        return collection
    }

    /// The collection with the id, the unique id prefix or the unique title `reference`.
    private func findCollection(_ reference: String) async throws -> AssetCollection? {
        if let collection = try await library.fetchCollections(matching: CollectionQuery(ids: [reference])).collections.first {
            return collection
        }
        if let prefix = Self.idPrefix(reference) {
            let matches = try await library.fetchCollections(matching: CollectionQuery(predicate: prefix, limit: 3)).collections
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 { throw Self.ambiguous(reference, matches.map(\.id), kind: "collections") }
        }
        let titled = CollectionQuery(predicate: "title == \(PredicateText.quoted(reference))", limit: 3)
        let matches = try await library.fetchCollections(matching: titled).collections
        if matches.count > 1 {
            throw CommandFailure("several albums or folders are titled '\(reference)': use an id ("
                + matches.map(\.id).joined(separator: ", ") + ")")
        }
        return matches.first
    }

    /// The predicate selecting ids that begin with `reference`, when it can be the start of an id.
    private static func idPrefix(_ reference: String) -> String? {
        guard reference.count >= minimumPrefixLength, isIdText(reference) else { return nil }
        return "localIdentifier BEGINSWITH \(PredicateText.quoted(reference))"
    }

    /// Whether `reference` is written like an id (lowercase hex digits and dashes).
    private static func isIdText(_ reference: String) -> Bool {
        reference.utf8.allSatisfy { $0 == UInt8(ascii: "-") || (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Whether `reference` looks like the start of an id but is shorter than one is taken.
    private static func isTooShortForAnId(_ reference: String) -> Bool {
        !reference.isEmpty && reference.count < minimumPrefixLength && isIdText(reference)
    }

    private static func ambiguous(_ reference: String, _ ids: [String], kind: String) -> CommandFailure {
        let listed = ids.joined(separator: ", ") + (ids.count > 2 ? ", …" : "")
        return CommandFailure("'\(reference)' is the start of several \(kind)' ids (\(listed)): give more of the id")
    }

    private static func kindNames(_ kinds: Set<CollectionKind>, article: Bool = true) -> String {
        let names = CollectionKind.allCases.filter(kinds.contains).map { article ? $0.nameWithArticle : $0.name }
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

extension CollectionKind {
    /// The kind as a user reads it: "album", "smart album", "moment", "folder".
    var name: String {
        switch self {
        case .album: "album"
        case .smartAlbum: "smart album"
        case .moment: "moment"
        case .folder: "folder"
        }
    }

    var nameWithArticle: String { (self == .album ? "an " : "a ") + name }
}

extension Asset {
    /// For example `3f2a9c1e IMG_0001.JPG`, as a command says what it did to the asset.
    var summary: String { "\(Display.shortId(id)) \(originalFilename)" }
}

extension AssetCollection {
    /// For example `the album 'Summer'`.
    var describedWithArticle: String { "the \(kind.name) '\(title)'" }

    /// `describedWithArticle`, or just `an album` when the user named it by its title.
    func described(asNamed reference: String) -> String {
        reference == title ? kind.nameWithArticle : describedWithArticle
    }
}
