import ArgumentParser
import Foundation
import PhotoLibrary

struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show one asset whole: its files, dates and where they came from, camera, place, albums and metadata."
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The asset to show (its id or the start of it).", valueName: "asset-id"))
    var asset: String

    @Flag(help: "Print the asset, its albums and its file's metadata as one JSON object (all of it).")
    var json = false

    @Flag(help: "Print every metadata value whole, an editor's bookkeeping in XMP included.")
    var all = false

    private struct Info: Encodable {
        var asset: Asset
        var albums: [AssetCollection]
        var metadata: AssetMetadata?
        /// Why the file's metadata could not be read, when it could not.
        var metadataProblem: String?
        /// The edit's rendered file and adjustment, when the asset has an edit.
        var edit: Edit?
    }

    private struct Edit: Encodable {
        var path: String
        var mimeType: String
        var fileSize: Int
        var adjustment: Adjustment?
    }

    func run() async throws {
        let library = try await connection.connect()
        let asset = try await References(library: library).asset(self.asset).id
        let query = AssetQuery(ids: [asset], includeHidden: true, includeTrashed: true, includeAllBurstAssets: true)
        guard let found = try await library.fetchAssets(matching: query, includeResources: true).assets.first else {
            throw CommandFailure("asset \(asset) is gone")
        }
        let albums = try await library.fetchAllCollections(matching: CollectionQuery(containingAsset: asset))
            .collections
        var metadata: AssetMetadata?, metadataProblem: String?
        do {
            metadata = try await library.fetchAssetMetadata(for: asset)
        } catch {
            guard error.code == .daemonError, error.varlinkError != nil else { throw error }
            metadataProblem = error.message  // an offline or vanished file: show the rest
        }
        var edit: Edit?
        if found.hasAdjustments {
            let file = try await library.requestImageData(for: asset)
            let input = try await library.requestContentEditingInput(for: asset)
            edit = Edit(
                path: file.path, mimeType: file.mimeType, fileSize: file.fileSize, adjustment: input.currentAdjustment)
        }
        await library.close()
        let info = Info(asset: found, albums: albums, metadata: metadata, metadataProblem: metadataProblem, edit: edit)
        if json {
            try Console.printJSON(info)
        } else {
            for (label, value) in Self.lines(info, all: all) {
                Console.print(label.padding(toLength: 10, withPad: " ", startingAt: 0) + value)
            }
        }
    }

    private static func lines(_ info: Info, all: Bool) -> [(String, String)] {
        let asset = info.asset, metadata = info.metadata
        var lines: [(String, String)] = [("id", asset.id)]
        let subtypes = asset.mediaSubtypes.wireNames
        lines.append(
            (
                "type",
                asset.mediaType.rawValue + (subtypes.isEmpty ? "" : " (\(subtypes.joined(separator: ", ")))")
                    + (asset.pixelWidth > 0 ? ", \(asset.pixelWidth)x\(asset.pixelHeight)" : "")
                    + (asset.duration > 0 ? String(format: ", %.1f s", asset.duration) : "")
            ))
        lines.append(
            (
                "created",
                asset.creationDate.map { date in
                    Display.dateWithZone(date, source: asset.creationDateSource)
                        + " (\(describe(asset.creationDateSource)))"
                } ?? "unknown"
            ))
        lines.append(("modified", asset.modificationDate.map { Display.dateWithZone($0, source: nil) } ?? "-"))
        lines.append(("added", Display.dateWithZone(asset.addedDate, source: nil)))
        lines.append(("camera", describe(asset.camera) ?? "-"))
        lines.append(("location", asset.location.map(Display.location) ?? "-"))
        lines.append(("place", Display.place(asset.place)))
        let flags = [
            ("favorite", asset.isFavorite), ("hidden", asset.isHidden), ("in Recently Deleted", asset.isTrashed),
        ]
        .filter(\.1).map(\.0)
        lines.append(("state", (flags + [asset.hasAdjustments ? "edited" : "not edited"]).joined(separator: ", ")))
        lines += annotationLines(asset)
        for resource in asset.resources ?? [] {
            lines.append(
                (
                    "file",
                    "\(resource.type.rawValue): \(resource.path ?? resource.originalFilename) "
                        + "(\(resource.mimeType), \(resource.fileSize) bytes)"
                ))
        }
        if let edit = info.edit {
            lines.append(("file", "edit: \(edit.path) (\(edit.mimeType), \(edit.fileSize) bytes)"))
            lines.append(("edit", edit.adjustment.map(describe) ?? "-"))
        }
        lines.append(("albums", info.albums.map { "\($0.title) (\($0.kind.name))" }.joined(separator: ", ")))
        if let problem = info.metadataProblem { lines.append(("metadata", problem)) }
        guard let metadata else { return lines }
        let groups: [(String, [String: String]?)] = [
            ("tiff", metadata.tiff), ("exif", metadata.exif), ("gps", metadata.gps),
            ("iptc", metadata.iptc), ("xmp", metadata.xmp),
            ("makerApple", metadata.makerApple), ("container", metadata.container),
        ]
        var leftOut = 0
        for (group, values) in groups {
            for (key, value) in (values ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard all || !MetadataDigest.isBookkeeping(key, in: group) else {
                    leftOut += 1
                    continue
                }
                lines.append((group, "\(key) = \(all ? value : MetadataDigest.shortened(value))"))
            }
        }
        if leftOut > 0 {
            lines.append(("metadata", "\(leftOut) more values an editor keeps for itself; --all shows them"))
        }
        return lines
    }

    /// The rating, keywords, title and caption, and the sidecar that keeps them beside the file.
    private static func annotationLines(_ asset: Asset) -> [(String, String)] {
        let annotations = asset.annotations
        var lines = [
            ("rating", Display.rating(annotations.rating)),
            ("keywords", annotations.keywords.isEmpty ? "-" : annotations.keywords.joined(separator: ", ")),
            ("title", annotations.title ?? "-"), ("caption", annotations.caption ?? "-"),
        ]
        if let sidecar = asset.sidecar {
            lines.append(
                ("sidecar", sidecar.path + (sidecar.writeProblem.map { " (could not be written: \($0))" } ?? "")))
        }
        return lines
    }

    /// "io.photolibd.basic 1: {"rotate":90}", or the size of data in a format this tool does not read.
    private static func describe(_ adjustment: Adjustment) -> String {
        let data = adjustment.decodedData ?? Data()
        let content = adjustment.isBasic ? String(decoding: data, as: UTF8.self) : "\(data.count) bytes of data"
        return "\(adjustment.formatIdentifier) \(adjustment.formatVersion): \(content)"
    }

    private static func describe(_ source: CreationDateSource?) -> String {
        switch source {
        case .exif?: "EXIF, with the camera's offset"
        case .exifWithGPSOffset?: "EXIF, offset from the GPS clock"
        case .exifWithoutOffset?: "EXIF, no offset recorded: the camera clock's local time"
        case .xmp?: "XMP's creation date (xmp:CreateDate or photoshop:DateCreated), with its offset"
        case .xmpWithoutOffset?:
            "XMP's creation date (xmp:CreateDate or photoshop:DateCreated), no offset: a local time"
        case .gps?: "the GPS clock"
        case .mediaMetadata?: "the recording's container"
        case .fileName?: "the digits of the file name, a local time"
        case .fileModification?: "the file's modification time"
        case .user?: "set by a user"
        case nil: "source unknown"
        }
    }

    /// "Canon EOS R5, RF24-70mm F2.8 L IS USM, f/2.8, 1/125 s, ISO 400, 50 mm (50 mm in 35 mm)"; nil when unknown.
    private static func describe(_ camera: CameraData) -> String? {
        var parts: [String] = []
        if let model = camera.model {
            parts.append(camera.make.map { model.hasPrefix($0) ? model : "\($0) \(model)" } ?? model)
        } else if let make = camera.make {
            parts.append(make)
        }
        if let lens = camera.lensModel { parts.append(lens) }
        if let fNumber = camera.fNumber { parts.append("f/" + decimal(fNumber)) }
        if let time = camera.exposureTime {
            parts.append(time < 1 ? "1/\(Int((1 / time).rounded())) s" : decimal(time) + " s")
        }
        if let iso = camera.iso { parts.append("ISO \(iso)") }
        if let focalLength = camera.focalLength {
            parts.append(decimal(focalLength) + " mm" + (camera.focalLength35mm.map { " (\($0) mm in 35 mm)" } ?? ""))
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    private static func decimal(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}

/// What `photolib info` leaves out of a file's metadata unless asked for all of it: the values a person reads stay,
/// an editor's bookkeeping goes (a Photoshop export's XMP holds every ancestor document's id and its text layers).
enum MetadataDigest {
    /// The longest value shown whole.
    static let longestValue = 100

    /// XMP namespaces that record an editor's history and settings, not the picture.
    private static let bookkeepingNamespaces: Set<String> = ["xmpMM", "crs", "stEvt", "stRef", "illustrator", "xmpTPg"]

    /// Photoshop's own properties of the same kind.
    private static let bookkeepingProperties: Set<String> = [
        "photoshop:DocumentAncestors", "photoshop:TextLayerName", "photoshop:TextLayerText", "photoshop:History",
        "photoshop:LayerName", "photoshop:LayerText",
    ]

    /// Whether the value named `key` in `group` is an editor's bookkeeping.
    static func isBookkeeping(_ key: String, in group: String) -> Bool {
        guard group == "xmp" else { return false }
        let namespace = key.split(separator: ":", maxSplits: 1).first.map(String.init) ?? key
        return bookkeepingNamespaces.contains(namespace) || bookkeepingProperties.contains(key)
    }

    /// `value` on one line, cut to `longestValue` characters with "…" and how long it was.
    static func shortened(_ value: String) -> String {
        let line = value.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard line.count > longestValue else { return line }
        return line.prefix(longestValue) + "… (\(line.count) characters)"
    }
}
