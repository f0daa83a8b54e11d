import PhotoLibrary

/// Where the bytes of an asset's video come from when the page plays it.
///
/// Today: the asset's own file. A video the browser cannot play (HEVC, ProRes) fails in the player, and the page says
/// why and offers the original for download. The daemon's export to H.264/AAC MP4 (contract §12's export session)
/// plugs in here: a file the browser plays, for every video.
struct VideoSource: Sendable {
    let connections: LibraryConnections

    /// The file to serve for the video of `assetId`, with its type.
    func playableFile(for assetId: String) async throws(GalleryError) -> MediaFile {
        let data = try await connections.withLibrary { library throws(PhotoLibraryError) in
            try await library.requestImageData(for: assetId)
        }
        return MediaFile(path: data.path, mimeType: data.mimeType, fileSize: Int64(data.fileSize), filename: data.originalFilename)
    }
}

/// A file of the library to send: its path (readable by this process), type, size and name.
struct MediaFile: Sendable {
    var path: String
    var mimeType: String
    var fileSize: Int64
    var filename: String
}
