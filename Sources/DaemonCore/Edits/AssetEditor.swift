import Foundation
import Glibc
import Imaging
import LibraryStore
import Logging
import NIOPosix
import PhotoModel

/// An edit's rendered file copied into the store, ready to commit.
package struct PreparedEdit: Sendable {
    var staged: LibraryFileStore.StagedFile
    package var draft: AssetEditDraft
}

/// Prepares `editAsset` changes: renders `io.photolibd.basic` adjustments with libvips, or takes the caller's
/// rendered file, and puts the result in the library's store (crash-safe, as imports are). Originals are only read.
package struct AssetEditor: Sendable {
    /// The rendered formats an edit may have.
    static let renderedMimeTypes: Set = ["image/jpeg", "image/png", "image/heic"]

    let database: LibraryDatabase
    let fileStore: LibraryFileStore
    let threadPool: NIOThreadPool
    let renderer: ImageRenderer
    let rawReader: RawImageReader
    let metadataReader: ImageMetadataReader

    package init(
        database: LibraryDatabase, fileStore: LibraryFileStore, threadPool: NIOThreadPool, renderer: ImageRenderer,
        rawReader: RawImageReader, metadataReader: ImageMetadataReader
    ) {
        self.database = database
        self.fileStore = fileStore
        self.threadPool = threadPool
        self.renderer = renderer
        self.rawReader = rawReader
        self.metadataReader = metadataReader
    }

    /// Puts the edit of `target` in the store: the file at `renderedPath`, which `caller` must be able to read (unless
    /// it is the caller's upload, kept by the daemon), or the daemon's rendering of a basic adjustment when it is nil.
    ///
    /// - Throws: `ImportFailure` saying why the edit cannot be made; `LibraryError.notFound` for an unknown asset.
    package func prepare(
        target: String, renderedPath: String?, adjustment: Adjustment,
        caller: Caller?, isCallersUpload: Bool = false
    ) async throws -> PreparedEdit {
        // An asset created in the same call has no id yet; its edit file is named afresh.
        let name = target.hasPrefix("@") ? UUID().uuidString.lowercased() : target
        if let renderedPath {
            guard isCallersUpload || CallerFileAccess.canRead(renderedPath, caller: caller) else {
                throw ImportFailure.failed("the calling user cannot read the rendered file \(renderedPath)")
            }
            return try await threadPool.runIfActive { [self] in
                try stageRendered(renderedPath, named: name, adjustment: adjustment)
            }
        }
        let original = try await self.original(of: target)
        let basic: BasicAdjustment
        do {
            basic = try BasicAdjustment(data: adjustment.decodedData ?? Data())
        } catch {
            throw ImportFailure.failed(error.reason)
        }
        return try await threadPool.runIfActive { [self] in
            let image: RenderedImage
            do {
                // A RAW original is decoded at full size by LibRaw first.
                image =
                    if MediaFileKind(fileName: original) == .raw {
                        try rawReader.withUprightImage(
                            ofFileAt: original, minimumLongSide: .max,
                            allowsPreview: false
                        ) { decoded throws(ImagingError) in
                            try renderer.renderEdit(ofImageAt: decoded, adjustment: basic)
                        }
                    } else {
                        try renderer.renderEdit(ofImageAt: original, adjustment: basic)
                    }
            } catch let error as ImagingError {
                throw ImportFailure.failed("cannot render the edit: \(error.description)")
            }
            let staged = try fileStore.stageEdit(of: name, bytes: image.data, fileExtension: image.format.fileExtension)
            return PreparedEdit(
                staged: staged,
                draft: AssetEditDraft(
                    path: staged.storedPath, mimeType: image.format.mimeType, fileSize: Int64(image.data.count),
                    pixelWidth: image.size.width, pixelHeight: image.size.height, orientation: 1, adjustment: adjustment
                ))
        }
    }

    /// After the commit: keep the stored file only if the edit was committed.
    package func finish(_ edit: PreparedEdit, isCommitted: Bool) {
        fileStore.settle(edit.staged, isKept: isCommitted)
    }

    /// The original photo a basic adjustment of `assetId` renders from.
    private func original(of assetId: String) async throws -> String {
        guard let original = try await database.edits.editableOriginal(of: assetId) else {
            throw LibraryError.notFound(id: assetId)
        }
        if let reason = original.reasonItCannotBeEdited { throw ImportFailure.failed(reason) }
        return original.path
    }

    /// Checks that the caller's rendered file is a photo in an edit format, then copies it into the store.
    private func stageRendered(_ path: String, named name: String, adjustment: Adjustment) throws(ImportFailure)
        -> PreparedEdit
    {
        let metadata: ImageMetadata
        do {
            metadata = try metadataReader.readMetadata(atPath: path)
        } catch {
            throw .failed("the rendered file is not a photo: \(error.description)")
        }
        guard Self.renderedMimeTypes.contains(metadata.mimeType) else {
            throw .failed("the rendered file is \(metadata.mimeType); an edit is a JPEG, PNG or HEIC image")
        }
        let fileExtension =
            switch metadata.mimeType {
            case "image/png": "png"
            case "image/heic": "heic"
            default: "jpg"
            }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system("cannot open the rendered file \(path)") }
        defer { close(descriptor) }
        let staged = try fileStore.stageEdit(of: name, descriptor: descriptor, fileExtension: fileExtension)
        var info = stat()
        let size = stat(staged.storedPath, &info) == 0 ? Int64(info.st_size) : 0
        return PreparedEdit(
            staged: staged,
            draft: AssetEditDraft(
                path: staged.storedPath, mimeType: metadata.mimeType, fileSize: size, pixelWidth: metadata.pixelWidth,
                pixelHeight: metadata.pixelHeight, orientation: metadata.orientation, adjustment: adjustment))
    }
}
