import ArgumentParser
import Foundation
import Imaging
import PhotoLibrary

struct ThumbnailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write an image of an asset, upright, at a size.",
        discussion: """
            The image is a JPEG or a PNG, as the output's extension or --format says (by default a JPEG, or a PNG \
            when the photo has transparency); videos give a frame. '-o -' writes to standard output. \
            Example: photolib thumbnail ASSET --size 256x256 --crop -o thumb.jpg
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The asset to show (its id or the start of it).", valueName: "asset-id"))
    var asset: String

    @Option(help: ArgumentHelp("The target size.", valueName: "WIDTHxHEIGHT"))
    var size: TargetSize = TargetSize(ImageSize(width: 256, height: 256))

    @Option(help: "fit: the image fits inside the size; fill: it covers the size, nothing cut off.")
    var mode: FitMode = .fit

    @Flag(help: "Fill the size exactly, cutting off what lies outside it (the usual square thumbnail).")
    var crop = false

    @Option(help: """
        exact: fit or fill the size exactly; fast: the cached size closest to it, never smaller; \
        none: the image's own size.
        """)
    var resize: ImageResizeMode = .exact

    @Option(help: ArgumentHelp("Show only this part of the upright image (with --resize exact), in 0...1 coordinates.",
                               valueName: "x,y,width,height"))
    var region: CropRectangle?

    @Option(help: "jpeg or png (default: from the output's extension).")
    var format: OutputFormat?

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The file to write, or - for standard output.",
                                                                      valueName: "file"))
    var output: String

    func validate() throws {
        if crop, region != nil { throw ValidationError("--crop and --region each choose the part shown: give one") }
        if crop, resize != .exact { throw ValidationError("--crop makes the exact size: it needs --resize exact") }
        if format == nil, output != "-", OutputFormat(fileName: output) == nil {
            throw ValidationError("cannot tell the format from '\(output)': name it .jpg or .png, or give --format")
        }
    }

    func run() async throws {
        let destination = try OutputFile(output)
        let library = try await connection.connect()
        let found = try await References(library: library).asset(asset)
        let cropRect = crop ? Self.centredCrop(of: found, to: size.value) : region?.value
        let image = try await library.requestImage(RequestImageParameters(
            assetId: found.id, targetSize: size.value, contentMode: crop ? .aspectFill : mode.contentMode,
            resizeMode: resize, normalizedCropRect: cropRect))
        await library.close()
        let wanted = format ?? OutputFormat(fileName: output)
        if let wanted, wanted.mimeType != image.mimeType {
            let converted = try ImageRenderer().convert(imageAt: image.path, to: wanted.imageFileFormat)
            try destination.write(Data(converted.data))
        } else {
            try destination.write(contentsOf: image.path)
        }
        let described = "\(image.width)x\(image.height) \(wanted?.mimeType ?? image.mimeType)"
        if output == "-" { Console.printError(described + "\n") } else { Console.print("\(output): \(described)") }
    }

    /// The centred part of the upright asset with the target's shape, so that filling the size cuts nothing more.
    private static func centredCrop(of asset: Asset, to target: ImageSize) -> NormalizedCropRect? {
        guard asset.pixelWidth > 0, asset.pixelHeight > 0 else { return nil }
        let width = Double(asset.pixelWidth), height = Double(asset.pixelHeight)   // as displayed
        let targetAspect = Double(target.width) / Double(target.height)
        if width / height > targetAspect {
            let share = height * targetAspect / width
            return NormalizedCropRect(x: (1 - share) / 2, y: 0, width: share, height: 1)
        }
        let share = width / targetAspect / height
        return NormalizedCropRect(x: 0, y: (1 - share) / 2, width: 1, height: share)
    }
}

/// The image formats `thumbnail` writes.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case jpeg, png

    /// The format a file name's extension asks for: .jpg, .jpeg or .png.
    init?(fileName: String) {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        default: return nil
        }
    }

    var mimeType: String { imageFileFormat.mimeType }

    var imageFileFormat: ImageFileFormat { self == .jpeg ? .jpeg : .png }
}

/// How the image meets the target size, as the command line spells it.
enum FitMode: String, ExpressibleByArgument, CaseIterable {
    case fit, fill

    var contentMode: ImageContentMode { self == .fit ? .aspectFit : .aspectFill }
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
    let value: NormalizedCropRect

    init?(argument: String) {
        let numbers = argument.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4 else { return nil }
        value = NormalizedCropRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }
}

extension ImageResizeMode: ExpressibleByArgument {}

/// Where a command writes a file: a path whose folder must exist, or standard output for `-`.
///
/// One rule for every command that writes a file: photolib creates no folder for it, and a folder that is missing
/// is named in the error (`export`, whose job is to fill a folder, makes that folder).
struct OutputFile {
    let path: String

    init(_ path: String) throws {
        self.path = path
        guard path != "-" else { return }
        try Self.requireFolder((path as NSString).deletingLastPathComponent, for: path)
    }

    /// Fails unless `folder` (empty: the current one) exists and is a folder.
    static func requireFolder(_ folder: String, for path: String) throws {
        var isFolder: ObjCBool = false
        let folder = folder.isEmpty ? "." : folder
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CommandFailure("cannot write \(path): there is no folder \(folder)")
        }
    }

    /// Writes `data`, replacing the file that is there.
    func write(_ data: Data) throws {
        guard path != "-" else { return Console.write(data) }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandFailure("cannot write \(path): \(Self.reason(error))")
        }
    }

    /// Writes a copy of the file at `source`.
    func write(contentsOf source: String) throws {
        guard let data = FileManager.default.contents(atPath: source) else {
            throw CommandFailure("cannot read \(source), the file photolibd made")
        }
        try write(data)
    }

    /// The system's reason for a failed file operation (`Permission denied`), not Foundation's sentence.
    static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying.map(\.code), underlying?.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(code)))
        }
        return error.localizedDescription
    }
}
