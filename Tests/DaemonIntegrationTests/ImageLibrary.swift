import Digests
import Foundation
import HexEncoding
import PhotoLibrary
import Testing
import TestSupport
import Varlink

/// A running daemon with photos imported by reference from a temporary folder, asked for images through the typed client.
struct ImageLibrary {
    let daemon: DaemonProcess
    let client: PhotoLibrary
    let photos: TemporaryDirectory

    init(daemon: DaemonProcess, photos: TemporaryDirectory) async throws {
        self.daemon = daemon
        self.photos = photos
        client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
    }

    static func start(extraConfig: String = "") async throws -> ImageLibrary {
        let daemon = try DaemonProcess(extraConfig: extraConfig)
        try await daemon.start()
        return try await ImageLibrary(daemon: daemon, photos: try TemporaryDirectory())
    }

    /// Imports the files in place and returns their asset ids, in order.
    func importByReference(_ paths: [String]) async throws -> [String] {
        let files = try await client.importFiles(paths, mode: .reference).files
        let ids = Dictionary(files.map { ($0.path, $0.assetId) }) { first, _ in first }
        let imported = try paths.map { try #require(ids[$0] ?? nil, "\(files)") }
        try #require(Set(imported).count == paths.count, "duplicates among \(paths)")
        return imported
    }

    /// The image of a one-reply request.
    func requestImage(_ request: RequestImageParameters) async throws -> ImageResult {
        try await client.requestImage(request)
    }

    /// Every image of one request, as the daemon delivers them.
    func streamImage(_ request: RequestImageParameters) async throws -> [ImageResult] {
        var images: [ImageResult] = []
        for try await image in client.images(request) { images.append(image) }
        return images
    }

    /// Deletes assets for good.
    func purge(_ ids: [String]) async throws {
        var changes = PhotoLibrary.ChangeBuilder()
        changes.deleteAssets(ids, permanently: true)
        _ = try await client.performChanges(changes)
    }

    /// The rendition files in the cache.
    var renditionFiles: [String] {
        let root = daemon.directory + "/cache/renditions"
        let shards = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return shards.filter { $0 != "incoming" }.flatMap { shard in
            ((try? FileManager.default.contentsOfDirectory(atPath: root + "/" + shard)) ?? []).map { "\(root)/\(shard)/\($0)" }
        }
    }

    /// Whether the cache holds the asset's grid image (the rendition whose shorter side is 256 pixels), named as
    /// the cache names its files: a hash of the asset id and the rendition's variant.
    func hasGridRendition(_ assetId: String) -> Bool {
        let digest = Digest.sha256((assetId + "\u{0}" + "short-256").utf8).lowercaseHex
        let shard = daemon.directory + "/cache/renditions/" + digest.prefix(2)
        let stem = String(digest.dropFirst(2).prefix(30)) + "."
        return ((try? FileManager.default.contentsOfDirectory(atPath: shard)) ?? []).contains { $0.hasPrefix(stem) }
    }

    /// Waits for background work of the daemon to show; fails after a minute rather than hang.
    func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
        if try await eventually(condition) { return }
        throw DaemonError("gave up waiting until \(what); renditions: \(renditionFiles); log:\n\(daemon.log())")
    }
}

extension ImageResult {
    /// `width`×`height` of the image.
    var size: (width: Int, height: Int) { (width, height) }
}

extension RequestImageParameters {
    /// A request for the asset's image at a `width`×`height` target.
    static func target(_ assetId: String, _ width: Int, _ height: Int, contentMode: ImageContentMode = .aspectFit,
                       resizeMode: ImageResizeMode = .fast, deliveryMode: ImageDeliveryMode = .opportunistic,
                       crop: NormalizedCropRect? = nil) -> RequestImageParameters {
        RequestImageParameters(assetId: assetId, targetSize: ImageSize(width: width, height: height), contentMode: contentMode,
                               resizeMode: resizeMode, deliveryMode: deliveryMode, normalizedCropRect: crop)
    }
}

/// The daemon's error a call failed with (through the typed client or a raw connection), with its name and parameters.
func varlinkError(_ body: () async throws -> some Any) async -> VarlinkError? {
    do {
        _ = try await body()
        return nil
    } catch let error as VarlinkError {
        return error
    } catch let error as PhotoLibraryError where error.varlinkError != nil {
        return error.varlinkError
    } catch {
        Issue.record("expected a varlink error, got \(error)")
        return nil
    }
}
