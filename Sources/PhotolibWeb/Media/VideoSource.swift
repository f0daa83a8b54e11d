import PhotoLibrary

/// Where the bytes of an asset's video come from when the page plays it: the asset's own file, or, for a video the
/// browser cannot decode (HEVC, ProRes), the daemon's export of it to H.264/AAC MP4 (`ExportVideo`, the export
/// session of contract §12), which the daemon keeps in its cache and hands out again while the video is unchanged.
struct VideoSource: Sendable {
    /// What the page's player gets: fitted in 1920×1080, its index first so that playing starts at once.
    static let preset = "AVAssetExportPreset1920x1080"

    let connections: LibraryConnections

    /// The asset's own file.
    func original(for assetId: String) async throws(GalleryError) -> MediaFile {
        let data = try await connections.withLibrary { library throws(PhotoLibraryError) in
            try await library.requestImageData(for: assetId)
        }
        return MediaFile(path: data.path, mimeType: data.mimeType, fileSize: Int64(data.fileSize), filename: data.originalFilename)
    }

    /// Checks that `assetId` names a video, before a conversion's answer starts: 404 for no asset, 400 for a photo.
    func requireVideo(_ assetId: String) async throws(GalleryError) {
        let asset = try await connections.withLibrary { library throws(PhotoLibraryError) in
            let query = AssetQuery(ids: [assetId], includeHidden: true, includeTrashed: true, includeAllBurstAssets: true)
            return try await library.fetchAssets(matching: query).assets.first
        }
        guard let asset else { throw .notFound("no asset has the id \(assetId)") }
        guard asset.mediaType == .video else { throw .badRequest("\(assetId) is not a video") }
    }

    /// The video made playable: exported now (`progress` hears the fraction done) or kept from before. The export
    /// holds a connection of its own for as long as it takes, and stops when the caller's task is cancelled.
    func converted(for assetId: String, progress: (Double) async throws -> Void = { _ in }) async throws(GalleryError)
        -> MediaFile
    {
        do {
            return try await connections.withOwnLibrary { library in
                for try await reply in library.exportVideo(assetId, preset: Self.preset, fileType: "mp4", optimizeForNetworkUse: true) {
                    guard let path = reply.path, let fileSize = reply.fileSize else {
                        try await progress(reply.progress)
                        continue
                    }
                    return MediaFile(path: path, mimeType: reply.mimeType ?? "video/mp4", fileSize: Int64(fileSize),
                                     filename: "\(assetId).mp4")
                }
                throw PhotoLibraryError(code: .unexpectedReply, message: "the daemon's export ended without its file")
            }
        } catch let error as PhotoLibraryError {
            throw error.gallery
        } catch let error as GalleryError {
            throw error
        } catch {
            throw .daemon(PhotoLibraryError(code: .daemonError, message: "\(error)"))
        }
    }
}

/// A file the daemon named, to send: its path, type, size and the name it is saved under.
struct MediaFile: Sendable {
    var path: String
    var mimeType: String
    var fileSize: Int64
    var filename: String
}
