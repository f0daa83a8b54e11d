import ArgumentParser
import PhotoLibrary

struct RateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate",
        abstract: "Give assets a rating: 1 to 5 stars, 0 for none, -1 (or 'reject') to reject them.",
        discussion: """
            The rating is written to each asset's XMP sidecar too (xmp:Rating), where darktable, digiKam and \
            Lightroom read it, unless the daemon's metadata_write_back is off.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The asset to rate (its id or the start of it).", valueName: "asset-id"))
    var asset: String

    @Argument(help: ArgumentHelp("The rating: 0 to 5, or -1 or 'reject'.", valueName: "rating"))
    var rating: String

    func run() async throws {
        guard let stars = rating == "reject" ? -1 : Int(rating), (-1...5).contains(stars) else {
            throw ValidationError("the rating is 0 to 5 stars, or -1 or 'reject'; '\(rating)' is neither")
        }
        let library = try await connection.connect()
        let found = try await References(library: library).asset(asset)
        var changes = PhotoLibrary.ChangeBuilder()
        changes.setRating(stars, for: [found.id])
        _ = try await library.performChanges(changes)
        Console.print("rated \(found.summary): \(Display.rating(stars))")
    }
}

struct TagCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Add keywords to an asset (+KEYWORD) and remove others (-KEYWORD).",
        discussion: """
            A hierarchy's levels are joined by '|': photolib tag ID +'Places|France|Paris' -draft. Keywords are \
            written to the asset's XMP sidecar too (dc:subject, lr:hierarchicalSubject, digiKam:TagsList).
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The asset to tag (its id or the start of it).", valueName: "asset-id"))
    var asset: String

    @Argument(parsing: .allUnrecognized,
              help: ArgumentHelp("+KEYWORD to add, -KEYWORD to remove.", valueName: "+keyword|-keyword"))
    var keywords: [String] = []

    func validate() throws {
        guard !keywords.isEmpty else { throw ValidationError("name a keyword to add (+KEYWORD) or remove (-KEYWORD)") }
        for keyword in keywords where !(keyword.hasPrefix("+") || keyword.hasPrefix("-")) || keyword.count < 2 {
            throw ValidationError("'\(keyword)' is neither +KEYWORD (add) nor -KEYWORD (remove)")
        }
    }

    func run() async throws {
        let added = keywords.filter { $0.hasPrefix("+") }.map { String($0.dropFirst()) }
        let removed = keywords.filter { $0.hasPrefix("-") }.map { String($0.dropFirst()) }
        let library = try await connection.connect()
        let found = try await References(library: library).asset(asset)
        var changes = PhotoLibrary.ChangeBuilder()
        changes.updateKeywords(of: [found.id], adding: added, removing: removed)
        _ = try await library.performChanges(changes)
        let now = try await library.fetchAssets(matching: AssetQuery(ids: [found.id], includeHidden: true, includeTrashed: true))
        let keywords = now.assets.first?.annotations.keywords ?? []
        Console.print("tagged \(found.summary): \(keywords.isEmpty ? "no keywords" : keywords.joined(separator: ", "))")
    }
}

struct TitleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "title",
        abstract: "Set an asset's title (dc:title); empty text clears it."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var arguments: TextArguments

    func run() async throws {
        try await arguments.set("title", connection: connection) { $0.setTitle($1, for: $2) }
    }
}

struct CaptionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "caption",
        abstract: "Set an asset's caption (dc:description); empty text clears it."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var arguments: TextArguments

    func run() async throws {
        try await arguments.set("caption", connection: connection) { $0.setCaption($1, for: $2) }
    }
}

/// The asset and the text of `photolib title` and `photolib caption`.
struct TextArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The asset (its id or the start of it).", valueName: "asset-id"))
    var asset: String

    @Argument(help: ArgumentHelp("The text; words are joined by spaces, none clears it.", valueName: "text"))
    var words: [String] = []

    /// Sets the asset's `field` to the text (`change` adds the change) and says what it has now.
    func set(_ field: String, connection: ConnectionOptions,
             change: (inout PhotoLibrary.ChangeBuilder, String?, String) -> Void) async throws {
        let text = words.joined(separator: " ")
        let library = try await connection.connect()
        let found = try await References(library: library).asset(asset)
        var changes = PhotoLibrary.ChangeBuilder()
        change(&changes, text.isEmpty ? nil : text, found.id)
        _ = try await library.performChanges(changes)
        Console.print(text.isEmpty ? "cleared the \(field) of \(found.summary)" : "\(field) of \(found.summary): \(text)")
    }
}

extension Display {
    /// "★★★☆☆" for three stars, "rejected", or "unrated".
    static func rating(_ rating: Int) -> String {
        switch rating {
        case ...(-1): "rejected"
        case 0: "unrated"
        default: String(repeating: "★", count: min(rating, 5)) + String(repeating: "☆", count: max(0, 5 - rating))
        }
    }
}
