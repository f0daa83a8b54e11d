import ArgumentParser
import Glibc
import PhotoLibrary
import PredicateQuery

/// The assets a command changes: those named on the command line, or every asset a predicate selects (`--where`).
///
/// A selection by predicate is confirmed first, as its size is not seen on the command line: asked on a terminal,
/// `--yes` without one.
struct AssetSelection: ParsableArguments {
    @Argument(help: ArgumentHelp("The assets (ids or unique starts of ids).", valueName: "asset-id"))
    var assets: [String] = []

    @Option(
        name: .customLong("where"),
        help: ArgumentHelp(
            "Every asset matching this NSPredicate-format predicate instead, e.g. \"cameraModel == 'X100V'\".",
            valueName: "predicate"))
    var predicate: String?

    @Flag(name: [.short, .long], help: "Do not ask before changing the assets --where selects.")
    var yes = false

    /// Which assets `--where` looks among.
    enum Scope {
        /// The library as `photolib assets` lists it.
        case visible
        /// Hidden assets too.
        case includingHidden
        /// Recently Deleted only.
        case trash
    }

    var isEmpty: Bool { assets.isEmpty && predicate == nil }

    func validate() throws {
        if !assets.isEmpty, predicate != nil {
            throw ValidationError("name assets or select them with --where, not both")
        }
    }

    /// The selected assets; `--where` looks among the assets of `collection` when given. A predicate's matches are
    /// confirmed with `question` (given their count), e.g. `{ "Hide \($0)?" }`; none matching ends the command with a
    /// message and nothing changed.
    func resolve(
        in library: PhotoLibrary, scope: Scope = .visible, within collection: String? = nil,
        question: (String) -> String
    ) async throws -> [Asset] {
        guard let predicate else {
            guard !assets.isEmpty else { throw ValidationError("name the assets, or select them with --where") }
            return try await References(library: library).assets(assets)
        }
        var query = AssetQuery(
            collection: collection, predicate: predicate, includeHidden: scope != .visible,
            includeTrashed: scope == .trash)
        if scope == .trash { query.predicate = "(\(predicate)) AND isTrashed == YES" }
        let selected: [Asset]
        do {
            selected = try await library.fetchAllAssets(matching: query).assets
        } catch {
            guard error.code == .invalidPredicate else { throw error }
            throw try await PredicateRefusal.explain(error, ofPredicate: predicate, in: library)
        }
        guard !selected.isEmpty else {
            Console.printError("no asset matches --where \(predicate); nothing changed\n")
            throw ExitCode.success
        }
        let count = Display.count(selected.count, "asset")
        if !yes {
            try Confirmation.ask(
                question(count),
                withoutTerminal: "--where selects \(count): add --yes to go ahead without a terminal to ask on")
        }
        return selected
    }
}

/// Questions a command asks before it does what cannot be seen on its command line, or cannot be undone.
enum Confirmation {
    /// Asks `question` on the terminal; anything but yes ends the command with nothing done. Without a terminal to
    /// ask on, fails with `withoutTerminal`.
    static func ask(_ question: String, withoutTerminal refusal: String) throws {
        guard isatty(STDIN_FILENO) == 1 else { throw CommandFailure(refusal) }
        Console.printError("\(question) [y/N] ")
        guard let answer = readLine()?.lowercased(), ["y", "yes"].contains(answer) else {
            throw CommandFailure("nothing changed")
        }
    }
}

/// A predicate the daemon refused, explained as the user wrote it.
enum PredicateRefusal {
    /// The refusal of `predicate` (its positions, not those of a predicate a command built around it), with the keys
    /// there are when a key was unknown.
    static func explain(
        _ refusal: PhotoLibraryError, ofPredicate predicate: String?,
        in library: PhotoLibrary
    ) async throws -> CommandFailure {
        var message = refusal.message
        do {
            _ = try await library.fetchAssets(matching: AssetQuery(predicate: predicate, limit: 0))
        } catch {
            guard error.code == .invalidPredicate else { throw error }
            message = error.message
        }
        return CommandFailure(
            message + (message.contains("unknown key") ? "; the keys are: \(PredicateSchema.assets.keyList)" : ""))
    }
}
