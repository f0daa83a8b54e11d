import ArgumentParser
import Foundation
import PhotoLibrary

struct ThumbnailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write an image of an asset, upright, at a size.",
        discussion: """
            The image is a JPEG, or a PNG when the photo has transparency; videos give a frame. \
            Example: photolib thumbnail ASSET --size 256x256 --mode fill -o thumb.jpg
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The asset to show.", valueName: "asset-id"))
    var asset: String

    @Option(help: ArgumentHelp("The target size.", valueName: "WIDTHxHEIGHT"))
    var size: TargetSize = TargetSize(ImageSize(width: 256, height: 256))

    @Option(help: "fit: the image fits inside the size; fill: it covers the size, nothing cut off.")
    var mode: FitMode = .fit

    @Option(help: """
        exact: fit or fill the size exactly; fast: the cached size closest to it, never smaller; \
        none: the image's own size.
        """)
    var resize: ImageRequestOptions.ResizeMode = .exact

    @Option(help: ArgumentHelp("Show only this part of the upright image (with --resize exact), in 0...1 coordinates.",
                               valueName: "x,y,width,height"))
    var crop: CropRectangle?

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The file to write.", valueName: "file"))
    var output: String

    func run() async throws {
        let library = try await connection.connect()
        let options = ImageRequestOptions(targetSize: size.value, contentMode: mode.contentMode, resizeMode: resize,
                                          normalizedCropRect: crop?.value)
        let image = try await library.requestImage(for: asset, options: options)
        await library.close()
        try FileCopy.replace(output, withContentsOf: image.path)
        Console.print("\(output): \(image.width)x\(image.height) \(image.mimeType)")
    }
}

/// How the image meets the target size, as the command line spells it.
enum FitMode: String, ExpressibleByArgument, CaseIterable {
    case fit, fill

    var contentMode: ImageRequestOptions.ContentMode { self == .fit ? .aspectFit : .aspectFill }
}

/// A `WIDTHxHEIGHT` argument.
struct TargetSize: ExpressibleByArgument {
    let value: ImageSize

    init(_ value: ImageSize) {
        self.value = value
    }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 }) else { return nil }
        value = ImageSize(width: parts[0], height: parts[1])
    }

    var defaultValueDescription: String { "\(value.width)x\(value.height)" }
}

/// An `x,y,width,height` argument.
struct CropRectangle: ExpressibleByArgument {
    let value: ImageRequestOptions.Rect

    init?(argument: String) {
        let numbers = argument.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4 else { return nil }
        value = ImageRequestOptions.Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }
}

extension ImageRequestOptions.ResizeMode: ExpressibleByArgument {}

/// Copies files the daemon points to.
enum FileCopy {
    /// Writes a copy of `source` at `destination`, replacing what is there.
    static func replace(_ destination: String, withContentsOf source: String) throws {
        guard let data = FileManager.default.contents(atPath: source) else {
            throw CommandFailure("cannot read \(source)")
        }
        do {
            try data.write(to: URL(fileURLWithPath: destination), options: .atomic)
        } catch {
            throw CommandFailure("cannot write \(destination): \(error.localizedDescription)")
        }
    }
}
