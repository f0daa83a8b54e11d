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
}
