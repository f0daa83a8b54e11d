import Foundation

/// Photos that show whether they are upright: grey, with a red block at the top left and a green block at the
/// top right of the picture as it should be seen (and a block of random grey noise at the bottom right, so that no two
/// are the same file). Made and read with the real `vips` and `exiftool` tools.
public enum MarkedPhotos {
    /// What lies in a region of a picture.
    public enum Mark: String, Sendable {
        case red, green, grey
    }

    /// The marks a viewer sees near three corners of a picture.
    public struct Corners: Sendable, Hashable, CustomStringConvertible {
        public var topLeft: Mark
        public var topRight: Mark
        public var bottomLeft: Mark

        public init(topLeft: Mark, topRight: Mark, bottomLeft: Mark) {
            self.topLeft = topLeft
            self.topRight = topRight
            self.bottomLeft = bottomLeft
        }

        /// The corners of a marked photo seen upright.
        public static let upright = Corners(topLeft: .red, topRight: .green, bottomLeft: .grey)

        public var description: String { "top left \(topLeft), top right \(topRight), bottom left \(bottomLeft)" }
    }

    /// Writes a JPEG (or the format of `path`'s extension) whose pixels are stored turned so that EXIF
    /// `orientation` (1...8, set with exiftool unless 1) brings the `width`×`height` picture upright; extra
    /// `exif` arguments go to exiftool too.
    @discardableResult
    public static func write(at path: String, width: Int, height: Int, orientation: Int, exif: [String] = []) throws -> String {
        let upright = path + ".upright.v"
        let stored = path + ".stored.v"
        defer {
            for scratch in [upright, stored, path + ".step.v"] { try? FileManager.default.removeItem(atPath: scratch) }
        }
        try runTool("/usr/bin/vips", ["black", path + ".step.v", "\(width)", "\(height)", "--bands", "3"])
        try runTool("/usr/bin/vips", ["linear", path + ".step.v", upright, "1", "128", "--uchar"])
        try runTool("/usr/bin/vips", ["draw_rect", upright, "255 0 0", "0", "0", "\(width / 3)", "\(height / 3)", "--fill"])
        try runTool("/usr/bin/vips", ["draw_rect", upright, "0 255 0", "\(width - width / 3)", "0", "\(width / 3)",
                                      "\(height / 3)", "--fill"])
        // A block of random grey noise at the bottom right makes every photo's content unique, so none is a
        // duplicate (one random shade collided about once in 256 pairs).
        // Scratch names without spaces: bandjoin takes its inputs as one space-separated list.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
        let noise = scratch + ".noise.v", grey = scratch + ".grey.v", block = scratch + ".block.v"
        defer { for scratch in [noise, grey, block] { try? FileManager.default.removeItem(atPath: scratch) } }
        try runTool("/usr/bin/vips", ["gaussnoise", noise, "\(max(1, width / 4))", "\(max(1, height / 4))"])
        try runTool("/usr/bin/vips", ["cast", noise, grey, "uchar"])
        try runTool("/usr/bin/vips", ["bandjoin", "\(grey) \(grey) \(grey)", block])
        try runTool("/usr/bin/vips", ["draw_image", upright, block, "\(width - width / 4)", "\(height - height / 4)"])
        // The stored pixels are the upright picture through the inverse of the orientation's transform.
        let steps: [[String]] = switch orientation {
        case 2: [["flip", "horizontal"]]
        case 3: [["rot", "d180"]]
        case 4: [["flip", "vertical"]]
        case 5: [["rot", "d90"], ["flip", "horizontal"]]
        case 6: [["rot", "d270"]]
        case 7: [["rot", "d90"], ["flip", "vertical"]]
        case 8: [["rot", "d90"]]
        default: []
        }
        var current = upright
        for (index, step) in steps.enumerated() {
            let next = index == steps.count - 1 ? stored : path + ".step.v"
            try runTool("/usr/bin/vips", [step[0], current, next, step[1]])
            current = next
        }
        try runTool("/usr/bin/vips", ["copy", current, path + "[strip]"])
        if orientation != 1 || !exif.isEmpty {
            try runTool("/usr/bin/exiftool", ["-q", "-overwrite_original", "-Orientation#=\(orientation)"] + exif + [path])
        }
        return path
    }

    /// The marks seen near three corners of the picture at `path`, as stored (no orientation applied).
    public static func corners(of path: String) throws -> Corners {
        let size = try ImageProbe.size(of: path)
        func mark(_ x: Int, _ y: Int) throws -> Mark {
            let value = try ImageProbe.pixel(of: path, x: x, y: y)
            guard value.count >= 3 else { return .grey }
            if value[0] > 160 && value[1] < 100 && value[2] < 100 { return .red }
            if value[1] > 160 && value[0] < 100 && value[2] < 100 { return .green }
            return .grey
        }
        let left = size.width / 8, right = size.width - 1 - size.width / 8
        let top = size.height / 8, bottom = size.height - 1 - size.height / 8
        return Corners(topLeft: try mark(left, top), topRight: try mark(right, top), bottomLeft: try mark(left, bottom))
    }
}

/// Reads images with the real `vips` tools.
public enum ImageProbe {
    /// The stored width and height of the image at `path`.
    public static func size(of path: String) throws -> (width: Int, height: Int) {
        let fields = try runTool("/usr/bin/vipsheader", ["-f", "width", path]).output + " "
            + runTool("/usr/bin/vipsheader", ["-f", "height", path]).output
        let numbers = fields.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard numbers.count == 2 else { throw ToolFailure(command: "vipsheader \(path)", result: ToolResult(status: 0, output: fields, errors: "")) }
        return (numbers[0], numbers[1])
    }

    /// The band values of one pixel.
    public static func pixel(of path: String, x: Int, y: Int) throws -> [Double] {
        try runTool("/usr/bin/vips", ["getpoint", path, "\(x)", "\(y)"]).output
            .split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    }

    /// The loader libvips picks for the file: "jpegload", "pngload"...
    public static func loader(of path: String) throws -> String {
        try runTool("/usr/bin/vipsheader", ["-f", "vips-loader", path]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every tag exiftool finds, as `Group:Name` (`GPS:GPSLatitude`), without exiftool's own and the file system's.
    public static func metadataTags(of path: String) throws -> [String] {
        try runTool("/usr/bin/exiftool", ["-a", "-G1", "-s", "-q", path]).output
            .split(separator: "\n")
            .compactMap { line -> String? in
                let words = line.split(separator: ":", maxSplits: 1)[0].split(whereSeparator: \.isWhitespace)
                guard words.count == 2 else { return nil }
                return "\(words[0].dropFirst().dropLast()):\(words[1])"
            }
            .filter { !["ExifTool", "System", "File"].contains($0.split(separator: ":")[0]) }
    }

    /// Whether a tag of ``metadataTags(of:)`` describes the picture itself (size, depth, density) rather than
    /// being metadata about it.
    public static func isImageStructure(_ tag: String) -> Bool {
        let group = tag.split(separator: ":")[0]
        return ["JFIF", "PNG-pHYs"].contains(group) || [
            "PNG:ImageWidth", "PNG:ImageHeight", "PNG:BitDepth", "PNG:ColorType", "PNG:Compression", "PNG:Filter",
            "PNG:Interlace", "Composite:ImageSize", "Composite:Megapixels",
        ].contains(tag)
    }
}
