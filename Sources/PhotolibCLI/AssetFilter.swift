import ArgumentParser
import PhotoLibrary
import PredicateQuery

/// The options that choose which assets a listing looks at (`photolib assets`, `photolib places`): an album, a type,
/// dates, a place, a predicate, and whether hidden and deleted assets count.
struct AssetFilter: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Only the assets of this album, smart album or moment (id, start of an id, or title).",
            valueName: "album"))
    var album: String?

    @Option(help: "Only assets of this type: image, video or audio.")
    var media: MediaType?

    @Option(
        help: ArgumentHelp(
            "Only assets taken on or after this day (2024, 2024-05 or 2024-05-01, local time).",
            valueName: "date"))
    var since: CalendarPeriod?

    @Option(help: ArgumentHelp("Only assets taken on or before this day, month or year.", valueName: "date"))
    var until: CalendarPeriod?

    @Option(help: ArgumentHelp("Only assets taken on this day, in this month or in this year.", valueName: "date"))
    var on: CalendarPeriod?

    @Option(
        help: ArgumentHelp(
            "Only assets taken in this city, region or country, by its name with case and accents ignored "
                + "(zurich finds Zürich).",
            valueName: "name"))
    var place: String?

    @Option(
        name: .customLong("where"),
        help: ArgumentHelp(
            "Only assets matching this NSPredicate-format predicate, e.g. 'isFavorite == YES AND pixelWidth > 3000'.",
            valueName: "predicate"))
    var predicate: String?

    @Flag(help: "Include hidden assets.")
    var includeHidden = false

    @Flag(help: "Include assets in Recently Deleted.")
    var includeTrashed = false

    func validate() throws {
        if let place, place.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--place needs the name of a city, region or country")
        }
    }

    /// The query these options make, looking up `--album` in `library`.
    func query(in library: PhotoLibrary) async throws -> AssetQuery {
        var collection: AssetCollection?
        if let album {
            collection = try await References(library: library).collection(album, kinds: Set(CollectionKind.allCases))
        }
        return AssetQuery(
            collection: collection?.id, mediaTypes: media.map { [$0] }, predicate: combinedPredicate(),
            includeHidden: includeHidden, includeTrashed: includeTrashed)
    }

    /// The daemon's refusal of the query's predicate, explained as the user wrote `--where`.
    func explain(_ refusal: PhotoLibraryError, in library: PhotoLibrary) async throws -> any Error {
        guard refusal.code == .invalidPredicate else { return refusal }
        return try await PredicateRefusal.explain(refusal, ofPredicate: predicate, in: library)
    }

    /// `--where`, `--place` and the date options as one predicate.
    func combinedPredicate() -> String? {
        var terms = predicate.map { ["(\($0))"] } ?? []
        if let place {
            // The name is a quoted literal, never predicate text: quotes and backslashes in it are matched as they are.
            let name = PredicateText.quoted(place.trimmingCharacters(in: .whitespaces))
            terms.append("(city ==[cd] \(name) OR region ==[cd] \(name) OR country ==[cd] \(name))")
        }
        for period in [since, on].compactMap({ $0 }) {
            terms.append("creationDate >= \(PredicateText.quoted(period.start.rfc3339))")
        }
        for period in [until, on].compactMap({ $0 }) {
            terms.append("creationDate < \(PredicateText.quoted(period.end.rfc3339))")
        }
        return terms.isEmpty ? nil : terms.joined(separator: " AND ")
    }
}
