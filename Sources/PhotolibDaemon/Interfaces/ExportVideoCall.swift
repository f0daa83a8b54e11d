import DaemonCore
import PhotolibProtocol
import Varlink
import VideoExport

/// `Images.ExportVideo`: the export, its progress replies with `more`, the file named to the caller.
struct ExportVideoCall: Sendable {
    let exports: VideoExports
    let servedFiles: ServedFiles

    func respond(
        _ parameters: ExportVideoParameters, call: VarlinkCall, context: VarlinkCallContext,
        replies: VarlinkReplyWriter
    ) async throws {
        guard let preset = ExportPreset(rawValue: parameters.preset) else {
            throw ImageError.invalidParameter("preset")
        }
        guard let fileType = ExportFileType(rawValue: parameters.fileType ?? "mp4") else {
            throw ImageError.invalidParameter("fileType")
        }
        let request = VideoExportRequest(
            assetId: parameters.assetId, preset: preset, fileType: fileType,
            version: parameters.version ?? .current,
            optimizesForNetworkUse: parameters.optimizeForNetworkUse ?? false)
        // The newest fraction only: a client that reads slowly gets fewer progress replies, never a backlog.
        let (fractions, reporter) = AsyncStream.makeStream(of: Double.self, bufferingPolicy: .bufferingNewest(1))
        let exported = try await withThrowingTaskGroup(of: ExportedVideo?.self) { group in
            group.addTask {
                defer { reporter.finish() }
                return try await exports.export(request) { reporter.yield($0) }
            }
            group.addTask {
                for await fraction in fractions where call.more && fraction < 1 {
                    try await replies.send(ExportVideoReply(progress: fraction), continues: true)
                }
                return nil
            }
            var exported: ExportedVideo?
            for try await result in group where result != nil { exported = result }
            return exported!
        }
        servedFiles.name(exported.path, to: context.caller)
        try await replies.send(
            ExportVideoReply(
                progress: 1, path: exported.path, fileSize: exported.fileSize, mimeType: exported.mimeType,
                width: exported.width, height: exported.height, duration: exported.duration))
    }
}
