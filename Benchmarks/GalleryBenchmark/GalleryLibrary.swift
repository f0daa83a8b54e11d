import BenchmarkSupport
import Foundation
import LibraryStore
import PhotoModel

/// Builds the gallery benchmark's library through the store: COUNT photos over ten years, each referring to one of
/// the real JPEGs in PHOTOS (whose shapes vary), so that the page lays out real shapes and gets real thumbnails.
/// Usage: gallery-benchmark-library WORK COUNT PHOTOS
@main
struct GalleryLibrary {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 4, let count = Int(arguments[2]) else {
            print("usage: gallery-benchmark-library WORK COUNT PHOTOS")
            exit(64)
        }
        let work = arguments[1]
        let photos = try FileManager.default.contentsOfDirectory(atPath: arguments[3]).filter { $0.hasSuffix(".jpg") }.sorted()
            .map { arguments[3] + "/" + $0 }
        guard !photos.isEmpty else { throw BenchmarkError("no JPEGs in \(arguments[3])") }
        let shapes = try photos.map { path -> (Int, Int) in
            let size = try runTool("/usr/bin/vipsheader", ["-f", "width", path]) + " " + runTool("/usr/bin/vipsheader", ["-f", "height", path])
            let numbers = size.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            return (numbers[0], numbers[1])
        }
        let library = work + "/library"
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        let path = library + "/library.sqlite"
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let started = Date()
        let database = try LibraryDatabase(path: path)
        var generator = SystemRandomNumberGenerator()
        for batchStart in stride(from: 0, to: count, by: 1_000) {
            var drafts: [Int: AssetDraft] = [:]
            var changes: [LibraryChange] = []
            for index in 0..<min(1_000, count - batchStart) {
                let number = batchStart + index
                let file = number % photos.count
                let created = 1_480_000_000 + Double(generator.next() % 315_360_000)
                let resource = DraftResource(type: .photo, originalFilename: "IMG_\(number).jpg", mimeType: "image/jpeg",
                                             fileSize: 100_000, path: photos[file], isOwnedByLibrary: false)
                drafts[index] = AssetDraft(
                    mediaType: .image, pixelWidth: shapes[file].0, pixelHeight: shapes[file].1, orientation: 1,
                    creationDate: Timestamp(secondsSince1970: created, utcOffsetSeconds: 3_600), creationDateSource: .exif,
                    location: nil, contentHash: "gallery-benchmark-\(number)", resources: [resource])
                changes.append(.createAsset(AssetCreation(path: photos[file], placeholder: nil)))
            }
            _ = try await database.performChanges(changes, drafts: drafts)
        }
        print("built \(count) assets through the store in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }
}

private func runTool(_ tool: String, _ arguments: [String]) throws -> String {
    let process = Process()
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
