import PhotoModel

/// The kind of values a key holds, which decides the literals and operators it accepts.
public enum PredicateValueType: Sendable, Hashable {
    case integer
    case real
    /// An instant, written as an RFC 3339 string and held as seconds since 1970.
    case date
    case boolean
    case text
    /// A media type, written by name (`'image'`) or PhotoKit number (`1`), held as the number.
    case mediaType
    /// PhotoKit's media subtype bit set: `CONTAINS 'photoLive'`, `(mediaSubtypes & 8) != 0`.
    case mediaSubtypes
    /// Text that is one of these names (a collection's kind or subtype).
    case enumeration([String])
    /// Several texts (an asset's keywords), tested one by one: `ANY keywords == 'cat'`, `'cat' IN keywords`.
    case textList
}

/// A key a predicate may test.
public struct PredicateKey: Sendable, Hashable {
    public var name: String
    public var type: PredicateValueType
    /// Whether the key may have no value (`nil`).
    public var isOptional: Bool

    public init(_ name: String, _ type: PredicateValueType, isOptional: Bool = false) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
    }
}

/// The keys predicates over one kind of object may use.
public struct PredicateSchema: Sendable {
    public let keys: [String: PredicateKey]
    /// Fields the objects' JSON shows that are not keys, with the reason a refusal gives instead of "unknown key".
    public let notKeys: [String: String]

    public init(_ keys: [PredicateKey], notKeys: [String: String] = [:]) {
        self.keys = Dictionary(uniqueKeysWithValues: keys.map { ($0.name, $0) })
        self.notKeys = notKeys
    }

    /// The reason every schema gives for `id`, the JSON's name of the identifier.
    private static let idIsLocalIdentifier =
        "the id is tested as localIdentifier (PhotoKit's name), e.g. localIdentifier BEGINSWITH '3f2a'"

    /// The asset keys of the contract.
    public static let assets = PredicateSchema(
        [
            PredicateKey("localIdentifier", .text),
            PredicateKey("mediaType", .mediaType),
            PredicateKey("mediaSubtypes", .mediaSubtypes),
            PredicateKey("creationDate", .date, isOptional: true),
            PredicateKey("modificationDate", .date, isOptional: true),
            PredicateKey("addedDate", .date),
            PredicateKey("pixelWidth", .integer),
            PredicateKey("pixelHeight", .integer),
            PredicateKey("duration", .real),
            PredicateKey("isFavorite", .boolean),
            PredicateKey("isHidden", .boolean),
            PredicateKey("burstIdentifier", .text, isOptional: true),
            PredicateKey("originalFilename", .text),
            PredicateKey("fileSize", .integer),
            PredicateKey("cameraMake", .text, isOptional: true),
            PredicateKey("cameraModel", .text, isOptional: true),
            PredicateKey("lensModel", .text, isOptional: true),
            PredicateKey("fNumber", .real, isOptional: true),
            PredicateKey("exposureTime", .real, isOptional: true),
            PredicateKey("iso", .integer, isOptional: true),
            PredicateKey("focalLength", .real, isOptional: true),
            PredicateKey("focalLength35mm", .integer, isOptional: true),
            PredicateKey("hasAdjustments", .boolean),
            PredicateKey("isTrashed", .boolean),
            PredicateKey("orientation", .integer),
            PredicateKey(
                "creationDateSource", .enumeration(CreationDateSource.allCases.map(\.rawValue)), isOptional: true),
            PredicateKey("latitude", .real, isOptional: true),
            PredicateKey("longitude", .real, isOptional: true),
            PredicateKey("altitude", .real, isOptional: true),
            PredicateKey("rating", .integer),
            PredicateKey("keywords", .textList),
            PredicateKey("title", .text, isOptional: true),
            PredicateKey("caption", .text, isOptional: true),
            PredicateKey("city", .text, isOptional: true),
            PredicateKey("region", .text, isOptional: true),
            PredicateKey("country", .text, isOptional: true),
            PredicateKey("countryCode", .text, isOptional: true),
        ],
        notKeys: [
            "place": "a place is tested by city, region, country and countryCode",
            "id": idIsLocalIdentifier,
            "location": "a place is tested by latitude, longitude and altitude (latitude == nil: no place)",
            "resources":
                "an asset's files are not tested one by one; originalFilename and fileSize are its main file's",
        ])

    /// The collection keys of the contract.
    public static let collections = PredicateSchema(
        [
            PredicateKey("localIdentifier", .text),
            PredicateKey("title", .text),
            PredicateKey("kind", .enumeration(CollectionKind.allCases.map(\.rawValue))),
            PredicateKey("subtype", .enumeration(CollectionSubtype.allCases.map(\.rawValue))),
            PredicateKey("assetCount", .integer, isOptional: true),
            PredicateKey("startDate", .date, isOptional: true),
            PredicateKey("endDate", .date, isOptional: true),
        ], notKeys: ["id": idIsLocalIdentifier])
}

extension PredicateSchema {
    /// Why `name` is not a key, with the key it most likely meant: `unknown key 'fnumber' (did you mean 'fNumber'?)`.
    /// A field that is not a key says why: `'location' is not a predicate key: a place is tested by latitude…`.
    public func unknownKeyProblem(_ name: String) -> String {
        if let reason = notKeys[name] { return "'\(name)' is not a predicate key: \(reason)" }
        return "unknown key '\(name)'" + (closestKey(to: name).map { " (did you mean '\($0)'?)" } ?? "")
    }

    /// The keys, sorted and separated by commas.
    public var keyList: String { keys.keys.sorted().joined(separator: ", ") }

    /// The key spelled most like `name`: the same but for case, or a few edits (one per three letters) away.
    public func closestKey(to name: String) -> String? {
        Spelling.closest(to: name, among: keys.keys.sorted(), maximumEdits: Swift.max(1, name.count / 3))
    }
}
