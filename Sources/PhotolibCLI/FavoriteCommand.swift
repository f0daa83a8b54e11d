import ArgumentParser
import PhotoLibrary

struct FavoriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favorite",
        abstract: "Mark assets as favorites, or unmark them with --off."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var selection: AssetSelection

    @Flag(help: "Unmark the assets instead.")
    var off = false

    func run() async throws {
        let library = try await connection.connect()
        let found = try await selection.resolve(in: library) {
            off ? "Unmark \($0) as favorites?" : "Mark \($0) as favorites?"
        }
        let changed = found.filter { $0.isFavorite == off }
        if !changed.isEmpty {
            var changes = PhotoLibrary.ChangeBuilder()
            changes.setFavorite(!off, for: changed.map(\.id))
            _ = try await library.performChanges(changes)
        }
        for asset in found {
            let isChanged = asset.isFavorite == off
            Console.print(
                isChanged
                    ? "\(off ? "unmarked" : "marked") \(asset.summary)"
                    : "\(asset.summary): \(off ? "not a favorite" : "already a favorite")")
        }
    }
}

struct HideCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hide",
        abstract: "Hide assets: they leave the library's lists and smart albums but Hidden, and stay in their albums.",
        discussion: "'photolib assets --include-hidden' lists them; 'photolib unhide' shows them again."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var selection: AssetSelection

    func run() async throws {
        try await setHidden(true, selection, connection)
    }
}

struct UnhideCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unhide",
        abstract: "Show hidden assets again (--where looks among hidden assets too)."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var selection: AssetSelection

    func run() async throws {
        try await setHidden(false, selection, connection)
    }
}

/// Hides or shows the selected assets and says so for each, or that it was so already.
private func setHidden(_ isHidden: Bool, _ selection: AssetSelection, _ connection: ConnectionOptions) async throws {
    let library = try await connection.connect()
    let found = try await selection.resolve(in: library, scope: isHidden ? .visible : .includingHidden) {
        isHidden ? "Hide \($0)?" : "Show \($0) again?"
    }
    let changed = found.filter { $0.isHidden != isHidden }
    if !changed.isEmpty {
        var changes = PhotoLibrary.ChangeBuilder()
        changes.setHidden(isHidden, for: changed.map(\.id))
        _ = try await library.performChanges(changes)
    }
    for asset in found {
        Console.print(
            asset.isHidden != isHidden
                ? "\(isHidden ? "hid" : "unhid") \(asset.summary)"
                : "\(asset.summary): \(isHidden ? "already hidden" : "not hidden")")
    }
}
