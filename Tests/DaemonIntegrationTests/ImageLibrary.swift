import Foundation
import Testing
import TestSupport
import Varlink

/// A running daemon with photos imported by reference from a temporary folder, and calls of `io.photolibd.Images`.
struct ImageLibrary {
    let daemon: DaemonProcess
    let connection: VarlinkConnection
    let photos: TemporaryDirectory

    static func start(extraConfig: String = "") async throws -> ImageLibrary {
        let daemon = try DaemonProcess(extraConfig: extraConfig)
        try await daemon.start()
        return ImageLibrary(daemon: daemon, connection: try await daemon.connect(), photos: try TemporaryDirectory())
    }

    /// Imports the files in place and returns their asset ids, in order.
    func importByReference(_ paths: [String]) async throws -> [String] {
        let reply = try await connection.call("io.photolibd.Import.ImportFiles", parameters: .object([
            "paths": .array(paths.map(JSONValue.string)), "mode": "reference",
        ]))
        let files = try #require(reply["files"]?.arrayValue)
        let ids = Dictionary(files.map { ($0["path"]?.stringValue ?? "", $0["assetId"]?.stringValue) }) { first, _ in first }
        let imported = try paths.map { try #require(ids[$0] ?? nil, "\(reply)") }
        try #require(Set(imported).count == paths.count, "duplicates among \(paths)")
        return imported
    }

    /// One `RequestImage` call without `more`: the final image.
    func requestImage(_ assetId: String, _ options: [String: JSONValue] = [:]) async throws -> JSONValue {
        try await connection.call("io.photolibd.Images.RequestImage",
                                  parameters: .object(options.merging(["assetId": .string(assetId)]) { $1 }))
    }

    /// Every reply of one `RequestImage` call with `more`.
    func streamImage(_ assetId: String, _ options: [String: JSONValue] = [:]) async throws -> [JSONValue] {
        var replies: [JSONValue] = []
        for try await reply in connection.stream("io.photolibd.Images.RequestImage",
                                                 parameters: JSONValue.object(options.merging(["assetId": .string(assetId)]) { $1 }),
                                                 returning: JSONValue.self) {
            replies.append(reply)
        }
        return replies
    }

    /// Deletes assets for good.
    func purge(_ ids: [String]) async throws {
        _ = try await connection.call("io.photolibd.Library.PerformChanges", parameters: .object([
            "changes": [["op": "deleteAssets", "ids": .array(ids.map(JSONValue.string)), "permanently": true]],
        ]))
    }

    /// The rendition files in the cache.
    var renditionFiles: [String] {
        let root = daemon.directory + "/cache/renditions"
        let shards = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return shards.filter { $0 != "incoming" }.flatMap { shard in
            ((try? FileManager.default.contentsOfDirectory(atPath: root + "/" + shard)) ?? []).map { "\(root)/\(shard)/\($0)" }
        }
    }

    /// Waits for background work of the daemon to show; fails after a minute rather than hang.
    func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
        if try await eventually(condition) { return }
        throw DaemonError("gave up waiting until \(what); renditions: \(renditionFiles); log:\n\(daemon.log())")
    }
}

extension JSONValue {
    /// `width`×`height` of an image reply.
    var size: (width: Int, height: Int)? {
        guard let width = self["width"]?.intValue, let height = self["height"]?.intValue else { return nil }
        return (width, height)
    }
}

/// The error a call failed with, with its name and parameters.
func varlinkError(_ body: () async throws -> some Any) async -> VarlinkError? {
    do {
        _ = try await body()
        return nil
    } catch let error as VarlinkError {
        return error
    } catch {
        Issue.record("expected a varlink error, got \(error)")
        return nil
    }
}
