import Foundation
import PhotoLibrary

/// What a page asks to see, named by a key that fits in a URL: the timeline, a collection, a place, or a search.
///
/// - `timeline`: the library (neither hidden nor trashed), newest first, by day.
/// - `collection-ID`: an album in its own order; a smart album or moment newest first, by day.
/// - `place-ID`: the library's photos taken in a city (ID its GeoNames id), newest first, by day.
/// - `country-CC`: those taken in a country (CC its ISO 3166-1 code), newest first, by day.
/// - `search-TERMS`: TERMS is base64url of `{"predicate"?, "text"?, "from"?, "to"?}` (dates `YYYY-MM-DD`, `to`
///   included; `text` is found in keywords, titles, captions and file names, whatever the case, and in the names of
///   places, whatever the case and accents).
/// - `places`: not a list of assets but the library's cities (`LibraryFeed.places`), whose stream carries `places`.
/// - `duplicates`: not a list of assets either but the groups of duplicates (`LibraryFeed.duplicates`), whose stream
///   carries `duplicates`.
struct ViewSpec: Sendable, Hashable {
    enum Subject: Sendable, Hashable {
        case timeline
        case collection(String)
        case place(String)
        case country(String)
        case places
        case duplicates
        case search(predicate: String?, text: String?, from: String?, to: String?)
    }

    let key: String
    let subject: Subject

    static let timeline = ViewSpec(key: "timeline", subject: .timeline)

    /// Reads a view key; nil when it names nothing a page could ask for.
    init?(key: String) {
        guard key.utf8.count <= 4096 else { return nil }
        self.key = key
        if key == "timeline" {
            subject = .timeline
        } else if key == "places" {
            subject = .places
        } else if key == "duplicates" {
            subject = .duplicates
        } else if key.hasPrefix("place-") {
            let id = key.dropFirst("place-".count)
            guard (1...12).contains(id.utf8.count),
                id.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else { return nil }
            subject = .place(String(id))
        } else if key.hasPrefix("country-") {
            let code = key.dropFirst("country-".count)
            guard code.utf8.count == 2, code.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
            else { return nil }
            subject = .country(String(code))
        } else if key.hasPrefix("collection-") {
            let id = String(key.dropFirst("collection-".count))
            guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { return nil }
            subject = .collection(id)
        } else if key.hasPrefix("search-"), let data = Data(base64URL: String(key.dropFirst("search-".count))),
            let search = try? JSONDecoder().decode(SearchTerms.self, from: data)
        {
            subject = .search(
                predicate: search.predicate?.nilIfBlank, text: search.text?.nilIfBlank,
                from: search.from?.nilIfBlank, to: search.to?.nilIfBlank)
        } else {
            return nil
        }
    }

    private init(key: String, subject: Subject) {
        self.key = key
        self.subject = subject
    }

    private struct SearchTerms: Decodable {
        var predicate: String?
        var text: String?
        var from: String?
        var to: String?
    }

    static let newestFirst = [SortDescriptor(key: "creationDate", ascending: false)]
    /// How many assets of an album's own order make one section.
    static let albumRunLength = 120

    /// The daemon's query for this view, given the collection or place it names (when it names one).
    func query(collection: AssetCollection?, place: AssetPlace? = nil) throws(GalleryError) -> (
        AssetQuery, GalleryView.Grouping
    ) {
        switch subject {
        case .timeline:
            return (AssetQuery(sort: Self.newestFirst), .day)
        case .places:
            throw .notFound("the places are not a list of photos")
        case .duplicates:
            throw .notFound("the duplicates are not a list of photos")
        case .place(let id):
            guard let place, place.id == id else { throw .notFound("no photo was taken in the place \(id)") }
            // There is no key for a place's id: its names tell it, bound as literals.
            let region = place.region.map { "region == \(Self.literal($0))" } ?? "region == nil"
            let predicate =
                "city == \(Self.literal(place.city)) AND \(region) AND countryCode == \(Self.literal(place.countryCode))"
            return (AssetQuery(predicate: predicate, sort: Self.newestFirst), .day)
        case .country(let code):
            return (AssetQuery(predicate: "countryCode == \(Self.literal(code))", sort: Self.newestFirst), .day)
        case .collection(let id):
            guard let collection, collection.kind != .folder else { throw .notFound("no album \(id)") }
            if collection.kind == .album {
                return (AssetQuery(collection: id), .run(length: Self.albumRunLength))
            }
            var query = AssetQuery(collection: id, sort: Self.newestFirst)
            if collection.subtype == .smartAlbumAllHidden { query.includeHidden = true }
            if collection.subtype == .smartAlbumRecentlyDeleted {
                query.includeTrashed = true
                query.includeHidden = true
            }
            return (query, .day)
        case .search(let predicate, let text, let from, let to):
            var clauses: [String] = []
            if let predicate { clauses.append("(\(predicate))") }
            if let text { clauses.append(Self.textClause(text)) }
            if let from { clauses.append("creationDate >= \(try Self.dateLiteral(from, endOfDay: false))") }
            if let to { clauses.append("creationDate <= \(try Self.dateLiteral(to, endOfDay: true))") }
            return (
                AssetQuery(
                    predicate: clauses.isEmpty ? nil : clauses.joined(separator: " AND "), sort: Self.newestFirst), .day
            )
        }
    }

    /// The assets whose keywords, title, caption or file name hold `text`, whatever its case, or whose city, region or
    /// country does, whatever its case and accents ("zurich" finds Zürich).
    static func textClause(_ text: String) -> String {
        let quoted = literal(text)
        return "(ANY keywords CONTAINS[c] \(quoted) OR title CONTAINS[c] \(quoted) OR caption CONTAINS[c] \(quoted)"
            + " OR originalFilename CONTAINS[c] \(quoted) OR city CONTAINS[cd] \(quoted) OR region CONTAINS[cd] \(quoted)"
            + " OR country CONTAINS[cd] \(quoted))"
    }

    /// `text` as a quoted literal of the predicate language: its backslashes and quotes escaped.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// A `YYYY-MM-DD` day as the predicate's date literal at its start or end (UTC).
    private static func dateLiteral(_ day: String, endOfDay: Bool) throws(GalleryError) -> String {
        let parts = day.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, parts.allSatisfy({ $0.allSatisfy(\.isNumber) }),
            let month = Int(parts[1]), (1...12).contains(month), let dayOfMonth = Int(parts[2]),
            (1...31).contains(dayOfMonth)
        else { throw .badRequest("\(day) is not a date (YYYY-MM-DD)") }
        return "'\(day)T\(endOfDay ? "23:59:59.999" : "00:00:00")Z'"
    }
}

extension String {
    var nilIfBlank: String? { allSatisfy(\.isWhitespace) ? nil : self }
}

extension Data {
    /// Decodes base64url (RFC 4648 §5), with or without padding.
    init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
