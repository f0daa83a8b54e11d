import ArgumentParser
import Foundation
import PhotoLibrary

struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit photos: turn, mirror, crop or brighten them (--where: the photos it selects). The originals stay as they are.",
        discussion: """
            The daemon renders the edit (the io.photolibd.basic format) and keeps it beside the original; every \
            client then shows the edit. Each edit replaces the previous one and starts from the original. \
            'photolib revert' brings the original back.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @OptionGroup var selection: AssetSelection

    @Option(help: ArgumentHelp("Turn clockwise by 90, 180 or 270 degrees.", valueName: "degrees"))
    var rotate: Int = 0

    @Flag(name: .customLong("flip"), help: "Mirror the photo left to right.")
    var flipHorizontal = false

    @Option(help: ArgumentHelp("Keep this part of the upright original, as fractions of its width and height (0.1,0.1,0.8,0.8).",
                               valueName: "x,y,width,height"))
    var crop: String?

    @Option(help: ArgumentHelp("Brighten (or, negative, darken) by this many stops, from -10 to 10.", valueName: "EV"))
    var exposure: Double = 0

    func validate() throws {
        guard [0, 90, 180, 270].contains(rotate) else {
            throw ValidationError("--rotate takes 90, 180 or 270 degrees")
        }
        _ = try cropRect()
        guard rotate != 0 || flipHorizontal || crop != nil || exposure != 0 else {
            throw ValidationError("say what to change: --rotate, --flip, --crop or --exposure")
        }
    }

    func run() async throws {
        let library = try await connection.connect()
        let photos = try await selection.resolve(in: library, scope: .includingHidden) { "Edit \($0)?" }
        let adjustment = BasicAdjustment(rotate: rotate, flipHorizontal: flipHorizontal, crop: try cropRect(), exposure: exposure)
        var changes = PhotoLibrary.ChangeBuilder()
        for photo in photos { changes.editAsset(photo.id, basic: adjustment) }
        _ = try await library.performChanges(changes)
        for edited in try await References(library: library).assets(photos.map(\.id)) {
            Console.print("edited \(edited.summary): now \(edited.pixelWidth)x\(edited.pixelHeight)")
        }
    }

    private func cropRect() throws -> NormalizedRect? {
        guard let crop else { return nil }
        let values = crop.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == 4, let x = values[0], let y = values[1], let width = values[2], let height = values[3] else {
            throw ValidationError("--crop takes four numbers x,y,width,height, such as 0.1,0.1,0.8,0.8")
        }
        let rect = NormalizedRect(x: x, y: y, width: width, height: height)
        guard rect.isInsideUnitSquare else {
            throw ValidationError("--crop must lie within the photo: each number from 0 to 1, x+width and y+height at most 1")
        }
        return rect
    }
}

struct RevertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revert",
        abstract: "Drop photos' edits: the originals become their current versions again (--where: the edited ones it selects)."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var selection: AssetSelection

    func run() async throws {
        let library = try await connection.connect()
        var found = try await selection.resolve(in: library, scope: .includingHidden) { "Revert the edits of \($0)?" }
        if selection.predicate != nil { found = found.filter(\.hasAdjustments) }
        if let unedited = found.first(where: { !$0.hasAdjustments }) {
            throw CommandFailure("\(unedited.summary) has no edit; nothing reverted")
        }
        var changes = PhotoLibrary.ChangeBuilder()
        for asset in found { changes.revertAsset(asset.id) }
        _ = try await library.performChanges(changes)
        for asset in found { Console.print("reverted \(asset.summary) to its original") }
    }
}
