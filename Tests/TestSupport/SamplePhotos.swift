import Foundation

/// Real photographs for tests: scikit-image's sample photos (chelsea.png, coffee.png, astronaut.png, rocket.jpg…),
/// which scripts/setup installs from PyPI as data.
public enum SamplePhotos {
    /// Their folder, found without importing the package (its imports are not installed).
    public static func folder() throws -> String {
        let found = try runTool(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import importlib.util; print(importlib.util.find_spec('skimage').submodule_search_locations[0])",
            ]
        ).output.trimmingCharacters(in: .whitespacesAndNewlines)
        return found + "/data"
    }

    /// The picture at `path` as 8-bit RGB bytes (`width * 3` a row) with its size, turned first by the ImageMagick
    /// `operations` given (e.g. `-flop`, `-resize 70%`).
    public static func rgb(of path: String, _ operations: [String] = []) throws -> (
        pixels: [UInt8], width: Int, height: Int
    ) {
        let directory = try TemporaryDirectory()
        let raw = directory.file("picture.rgb")
        try runTool("/usr/bin/convert", [path] + operations + ["-depth", "8", "rgb:" + raw])
        let width = try runTool("/usr/bin/convert", [path] + operations + ["-format", "%w", "info:"]).output
        let pixels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        guard let columns = Int(width.trimmingCharacters(in: .whitespacesAndNewlines)), columns > 0 else {
            throw DaemonError("ImageMagick gave no width for \(path): '\(width)'")
        }
        return (pixels, columns, pixels.count / 3 / columns)
    }
}
