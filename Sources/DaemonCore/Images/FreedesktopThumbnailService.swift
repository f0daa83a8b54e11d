import Imaging
import NIOPosix
import PhotoModel
import Synchronization
import ThumbnailCache

/// The freedesktop.org thumbnails of the files referenced in place, when the configuration asks for them: written
/// from an asset's grid rendition, removed when a file leaves the library, turned on, moved or off by a reload.
package final class FreedesktopThumbnailService: Sendable {
    private let thumbnails: Mutex<FreedesktopThumbnails?>
    /// Files below it belong to the library; others are referenced in place.
    private let originalsDirectory: String
    private let maker: RenditionMaker
    private let fileWork: NIOThreadPool

    /// Writes into `directory` (none when nil) the thumbnails of files outside `originalsDirectory`.
    package init(directory: String?, originalsDirectory: String, maker: RenditionMaker, fileWork: NIOThreadPool) {
        thumbnails = Mutex(directory.map { FreedesktopThumbnails(directory: $0, renderer: maker.renderer) })
        self.originalsDirectory = originalsDirectory.hasSuffix("/") ? originalsDirectory : originalsDirectory + "/"
        self.maker = maker
        self.fileWork = fileWork
    }

    /// Whether thumbnails are written.
    var isOn: Bool { thumbnails.withLock { $0 != nil } }

    /// Writes thumbnails into `directory` from now on (none when nil); returns whether they are now written where
    /// they were not.
    package func reconfigure(directory: String?) -> Bool {
        thumbnails.withLock { current in
            guard current?.directory != directory else { return false }
            current = directory.map { FreedesktopThumbnails(directory: $0, renderer: maker.renderer) }
            return directory != nil
        }
    }

    /// Writes the thumbnails of the file at `path`, the original of `assetId`, from `rendition` of its current version
    /// (`displayedSize` as displayed) on a render thread at idle priority, unless the file is the library's own or
    /// they are current.
    func write(
        forFileAt path: String, assetId: String, displayedSize: PixelSize?, from rendition: CachedRendition
    ) async throws {
        guard let freedesktop = thumbnails.withLock({ $0 }), !path.hasPrefix(originalsDirectory),
            let displayedSize, !freedesktop.isCurrent(forFileAt: path, madeFrom: rendition.path)
        else { return }
        try await maker.runIdle(as: RenditionKey(assetId: assetId, variant: "freedesktop")) {
            try freedesktop.write(forFileAt: path, displayedSize: displayedSize, from: rendition.path)
            return rendition
        }
    }

    /// Removes the thumbnails of files that left `paths`.
    func remove(forFilesAt paths: [String]) async {
        guard let freedesktop = thumbnails.withLock({ $0 }) else { return }
        try? await fileWork.runIfActive { paths.forEach(freedesktop.remove(forFileAt:)) }
    }
}
