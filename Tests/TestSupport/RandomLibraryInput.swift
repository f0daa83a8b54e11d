import Foundation
import PhotoModel
import Varlink

// The random input the property tests draw from, the same in-process (DaemonCoreTests) and over the socket
// (DaemonIntegrationTests).

/// Random predicate text: well-formed ones over real keys and values, and mangled or random ones.
public struct RandomPredicates {
    var random = SeededGenerator()

    public init() {}

    private static let keys = [
        "mediaType", "mediaSubtypes", "creationDate", "modificationDate", "addedDate", "pixelWidth",
        "pixelHeight", "duration", "isFavorite", "isHidden", "burstIdentifier", "originalFilename",
        "fileSize", "foo", "MediaType", "title",
    ]
    private static let operators = [
        "==", "=", "!=", "<>", "<", "<=", ">", ">=", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH",
        "CONTAINS", "LIKE", "LIKE[c]", "==[cd]", "MATCHES", "CONTAINS[d]", "&",
    ]
    private static let values = [
        "1", "-2.5", "0x10", "1e3", "'image'", "'video'", "'photoLive'", "'2024-03-01T12:00:00Z'",
        "'2024-13-01'", "YES", "NO", "TRUE", "nil", "'IMG*'", "'a\\'b'", "\"q\"", "{1, 2}",
        "{'2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z'}", "{}", "'\u{e9}t\u{e9}'", "'\\u00e9'",
        "'; DROP TABLE asset; --", "'\u{0}'", "99999999999999999999",
    ]
    private static let glue = [
        " AND ", " OR ", " && ", " || ", " NOT ", "(", ")", "!", " ", "{", "}", ",", "[c]", "\u{0}", "\u{1F600}",
    ]

    mutating func pick(_ items: [String]) -> String { items[Int(random.next() % UInt64(items.count))] }

    /// Comparisons that are valid as they stand.
    private static let valid = [
        "mediaType == 1", "mediaType IN {'video', 3}", "pixelWidth > 3000", "fileSize BETWEEN {100, 900}",
        "creationDate >= '2024-03-01T00:00:00+01:00'", "creationDate == nil", "isFavorite == YES",
        "originalFilename BEGINSWITH[c] 'B'", "originalFilename LIKE '*.jpg'", "burstIdentifier != nil",
        "mediaSubtypes CONTAINS 'photoLive'", "(mediaSubtypes & 4) == 0", "duration < 1.5",
        "addedDate > '2000-01-01T00:00:00Z'", "NOT isHidden == NO", "TRUEPREDICATE",
    ]

    mutating func comparison() -> String {
        random.next() % 2 == 0 ? pick(Self.valid) : "\(pick(Self.keys)) \(pick(Self.operators)) \(pick(Self.values))"
    }

    public mutating func next() -> String {
        var text = comparison()
        for _ in 0..<Int(random.next() % 4) {
            text = random.next() % 3 == 0 ? "(\(text))" : text + pick([" AND ", " OR "]) + comparison()
        }
        switch random.next() % 5 {
        case 0:
            var scalars = Array(text.unicodeScalars)
            for _ in 0..<(1 + Int(random.next() % 3)) where !scalars.isEmpty {
                let index = Int(random.next() % UInt64(scalars.count))
                if random.next() % 2 == 0 {
                    scalars.remove(at: index)
                } else {
                    scalars.insert(contentsOf: pick(Self.glue).unicodeScalars, at: index)
                }
            }
            return String(String.UnicodeScalarView(scalars))
        case 1:
            return (0..<Int(random.next() % 12)).map { _ in pick(Self.glue + Self.values + Self.operators + Self.keys) }
                .joined()
        default:
            return text
        }
    }

    public mutating func collectionPredicate() -> String? {
        random.next() % 4 == 0
            ? pick(["title", "kind", "subtype", "assetCount", "startDate", "endDate", "pixelWidth"])
                + " \(pick(Self.operators)) \(pick(Self.values + ["'album'", "'moment'", "'smartAlbumFavorites'"]))"
            : nil
    }
}

/// Random change lists over the library's assets and albums: valid ones, and ones with unknown ids, read-only
/// targets, bad indexes, cycles, placeholders used too early or twice, and missing fields.
public struct RandomChanges {
    let assets: [String]
    let readOnly: [String]
    /// The library's collections, as the last fetch listed them.
    public var collections: [AssetCollection] = []
    var random = SeededGenerator()
    var placeholderCount = 0

    public init(assets: [String], readOnly: [String]) {
        self.assets = assets
        self.readOnly = readOnly
    }

    private func ids(ofKind kind: String) -> [String] {
        collections.filter { $0.kind.rawValue == kind }.map(\.id)
    }

    mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }

    mutating func number(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(random.next() % UInt64(range.count))
    }

    public mutating func changes() -> [[String: JSONValue]] {
        var list: [[String: JSONValue]] = []
        var placeholders: [String] = []
        let albums = ids(ofKind: "album") + ["no-such-album"], folders = ids(ofKind: "folder")
        let isCrowded = albums.count + folders.count > 7
        for _ in 0..<number(1...4) {
            placeholderCount += 1
            let placeholder = "@p\(placeholderCount)"
            let collection: String =
                random.next() % 6 == 0
                ? pick(readOnly)
                : (random.next() % 3 == 0 && !placeholders.isEmpty ? pick(placeholders) : pick(albums + folders))
            let folder: String = folders.isEmpty || random.next() % 5 == 0 ? pick(albums + readOnly) : pick(folders)
            let someAssets = JSONValue.array((0..<number(0...3)).map { _ in .string(pick(assets)) })
            let indexes = JSONValue.array((0..<number(0...2)).map { _ in .int(number(-1...5)) })
            switch isCrowded && random.next() % 2 == 0 ? 3 : random.next() % 16 {
            case 0:
                placeholders.append(placeholder)
                list.append([
                    "op": "createAlbum", "title": .string("Album \(placeholderCount)"),
                    "placeholder": .string(placeholder),
                ])
            case 1:
                placeholders.append(placeholder)
                var change: [String: JSONValue] = [
                    "op": "createFolder", "title": "Folder", "placeholder": .string(placeholder),
                ]
                if random.next() % 2 == 0 { change["parent"] = .string(folder) }
                list.append(change)
            case 2: list.append(["op": "updateCollection", "target": .string(collection), "title": "Renamed"])
            case 3: list.append(["op": "deleteCollections", "ids": [.string(collection)]])
            case 4: list.append(["op": "addAssets", "target": .string(collection), "ids": someAssets])
            case 5:
                let ids = (0..<(indexes.arrayValue?.count ?? 0)).map { _ in JSONValue.string(pick(assets)) }
                list.append([
                    "op": "insertAssets", "target": .string(collection), "ids": .array(ids), "indexes": indexes,
                ])
            case 6: list.append(["op": "removeAssets", "target": .string(collection), "ids": someAssets])
            case 7:
                list.append([
                    "op": "moveAssets", "target": .string(collection), "indexes": indexes,
                    "toIndex": .int(number(-1...4)),
                ])
            case 8:
                list.append([
                    "op": "addChildCollections", "target": .string(folder), "ids": [.string(pick(albums + folders))],
                ])
            case 9:
                list.append([
                    "op": "removeChildCollections", "target": .string(folder), "ids": [.string(pick(albums + folders))],
                ])
            case 10:
                list.append([
                    "op": "moveChildCollections", "target": .string(folder), "indexes": indexes,
                    "toIndex": .int(number(-1...3)),
                ])
            case 11:
                list.append([
                    "op": "updateAsset", "target": .string(pick(assets)), "isFavorite": .bool(random.next() % 2 == 0),
                    "isHidden": .bool(random.next() % 4 == 0),
                ])
            case 12: list.append(["op": "deleteAssets", "ids": someAssets])
            case 13: list.append(["op": "restoreAssets", "ids": someAssets])
            case 14: list.append(["op": .string(pick(["addAssets", "createAlbum", "teleport"]))])
            default:
                list.append([
                    "op": "createAlbum", "title": "Twice", "placeholder": .string(pick(placeholders + ["bad", "@"])),
                ])
            }
        }
        return list
    }
}

/// SplitMix64: the same numbers for the same seed, so a failing run can be run again. The seed is
/// `PHOTOLIBD_TEST_SEED` when set (to explore other runs), a fixed one otherwise.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(
        seed: UInt64 = ProcessInfo.processInfo.environment["PHOTOLIBD_TEST_SEED"].flatMap { UInt64($0) } ?? 0x5EED_2026
    ) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
