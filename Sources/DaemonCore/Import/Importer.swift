import Foundation
import Glibc
import Imaging
import LibraryStore
import Logging
import MediaProbe
import NIOPosix
import PhotoModel
import PhotolibConfig

/// A file's way into the library's store: prepared before the commit (access checked, opened once, read whole when
/// small, described by the `FileDescriber`, hashed and copied into the store under a temporary name) and settled
/// after it (the copy kept or dropped, a moved source removed).
///
/// All file work runs on a thread pool, never on an event loop.
package struct Importer: Sendable {
    /// `F_SETLEASE`, which Glibc's Swift module does not import.
    private static let setLease: Int32 = 1024
    /// Stills up to this size are read into memory whole, once, for their hash, copy, metadata and first rendition;
    /// larger files, videos, RAW files and the files of a busy import are read in chunks (a whole file passes
    /// through memory three times, a chunk through the processor's cache).
    static let wholeReadLimit: Int64 = 64 << 20

    let fileStore: LibraryFileStore
    let describer: FileDescriber
    var threadPool: NIOThreadPool { describer.threadPool }

    /// Imports into `fileStore`, reading files on the describer's thread pool.
    package init(fileStore: LibraryFileStore, describer: FileDescriber) {
        self.fileStore = fileStore
        self.describer = describer
    }

    /// Prepares one file named by a client; `caller` must be able to read it. `filename`, when given, is the name
    /// the file is kept and known under.
    package func prepare(path: String, mode: SourceMode, caller: Caller?, filename: String? = nil) async throws
        -> PreparedFile
    {
        guard MediaFileKind(fileName: filename ?? path) != nil else {
            var info = stat()
            if CallerFileAccess.canRead(path, caller: caller), stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR
            {
                throw ImportFailure(kind: .unsupported, reason: "a folder: import the files in it")
            }
            let fileExtension = (path as NSString).pathExtension
            throw ImportFailure(
                kind: .unsupported,
                reason: fileExtension.isEmpty
                    ? "a file name without an extension, so not a known photo, video or audio format"
                    : "'.\(fileExtension)' files are not a supported photo, video or audio format")
        }
        guard CallerFileAccess.canRead(path, caller: caller) else {
            throw ImportFailure.failed("the calling user cannot read this file")
        }
        return try await threadPool.runIfActive { [self] in
            try prepareBlocking(
                path: path, filename: filename, mode: mode, sourceRoot: nil, followsSymlinks: true,
                keepsContents: true)
        }
    }

    /// Prepares the bytes a client uploaded (kept by the daemon, in `path`) as the file `filename`, copied into the store.
    func prepare(uploadAt path: String, filename: String) async throws -> PreparedFile {
        guard MediaFileKind(fileName: filename) != nil else {
            throw ImportFailure(
                kind: .unsupported, reason: "'\(filename)' is not a supported photo, video or audio format")
        }
        return try await threadPool.runIfActive { [self] in
            try prepareBlocking(
                path: path, filename: filename, mode: .copy, sourceRoot: nil, followsSymlinks: false,
                keepsContents: true)
        }
    }

    /// Prepares a file found in the import source at `sourceRoot`; symbolic links are never followed. A still is
    /// read whole, for its first rendition, when `keepsContents`.
    func prepare(sourceFile path: String, mode: SourceMode, sourceRoot: String, keepsContents: Bool) async throws
        -> PreparedFile
    {
        try await threadPool.runIfActive { [self] in
            try prepareBlocking(
                path: path, filename: nil, mode: mode, sourceRoot: sourceRoot, followsSymlinks: false,
                keepsContents: keepsContents)
        }
    }

    /// After an ingest commit: keep or drop the store copies; in move mode remove the source once the library holds
    /// its content.
    package func finish(_ file: PreparedFile, outcome: IngestOutcome?, logger: Logger) async {
        for staged in [file.staged].compactMap({ $0 }) + file.companions {
            fileStore.settle(staged, isKept: outcome?.usesFile ?? false)
        }
        guard file.mode == .move, let outcome else { return }
        if case .duplicate(let assetId, let libraryCopy) = outcome {
            // Remove a dropped duplicate only when the library's own copy is there with the same content.
            guard let libraryCopy, await storedCopy(libraryCopy, matches: file.draft.contentHash) else {
                logger.notice(
                    "A duplicate in the drop folder stays: the library's copy is missing or differs",
                    metadata: ["path": "\(file.sourcePath)", "asset": "\(assetId)"])
                return
            }
            logger.info(
                "removed a duplicate from the drop folder: the library has it already",
                metadata: ["path": "\(file.sourcePath)", "asset": "\(assetId)"])
        }
        removeSource(file, logger: logger)
    }

    /// Removes a moved source, unless another file took its name since it was read (one dropped again under the
    /// same name before the library's copy was synced).
    private func removeSource(_ file: PreparedFile, logger: Logger) {
        var info = stat()
        guard lstat(file.sourcePath, &info) == 0 else { return }
        guard FileIdentity(info) == file.file.identity else {
            return logger.notice(
                "A file in the drop folder changed after it was imported and stays",
                metadata: ["path": "\(file.sourcePath)"])
        }
        if unlink(file.sourcePath) != 0 && errno != ENOENT {
            logger.warning(
                "could not remove moved file", metadata: ["path": "\(file.sourcePath)", "errno": "\(errno)"])
        }
    }

    private func storedCopy(_ path: String, matches hash: String) async -> Bool {
        let stored = try? await threadPool.runIfActive { [fileStore] in try fileStore.hash(ofFileAt: path) }
        return stored == hash
    }

    private func prepareBlocking(
        path: String, filename: String?, mode: SourceMode, sourceRoot: String?, followsSymlinks: Bool,
        keepsContents: Bool
    ) throws -> PreparedFile {
        let filename = filename ?? (path as NSString).lastPathComponent
        guard let kind = MediaFileKind(fileName: filename) else {
            throw ImportFailure(kind: .unsupported, reason: "not a supported media format")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followsSymlinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            throw errno == ELOOP
                ? ImportFailure(kind: .unsupported, reason: "a symbolic link") : ImportFailure.system("cannot open")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ImportFailure.system("cannot stat") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ImportFailure(kind: .unsupported, reason: "not a regular file")
        }
        guard info.st_size > 0 else { throw ImportFailure.failed("the file is empty") }
        let identity = FileIdentity(info)
        // A read lease is refused while any process has the file open for writing: it is not complete yet.
        if fcntl(descriptor, Self.setLease, Int32(F_RDLCK)) != 0, errno == EAGAIN {
            throw ImportFailure(kind: .changing, reason: "another program is still writing the file")
        }
        defer { _ = fcntl(descriptor, Self.setLease, Int32(F_UNLCK)) }

        let contents =
            keepsContents && kind == .image && identity.size <= Self.wholeReadLimit
            ? try Self.readWhole(descriptor, size: Int(identity.size)) : nil
        var draft = try describer.describe(
            path: path, kind: kind, filename: filename, identity: identity, contents: contents)
        var staged: LibraryFileStore.StagedFile?
        if mode == .reference {
            draft.contentHash =
                try contents.map { LibraryFileStore.hash($0.contents) } ?? LibraryFileStore.hash(descriptor: descriptor)
        } else {
            let copy = try fileStore.stage(
                descriptor: descriptor, contents: contents?.contents, named: filename,
                takenAt: draft.creationDate)
            staged = copy
            draft.contentHash = copy.hash
        }
        guard fstat(descriptor, &info) == 0, FileIdentity(info) == identity else {
            if let staged { fileStore.settle(staged, isKept: false) }
            throw ImportFailure(kind: .changing, reason: "the file changed while it was read")
        }
        let annotations = FileAnnotations(path: path, kind: kind, contents: contents, copy: staged?.storedPath)
        draft.annotations = annotations.annotations
        if let location = annotations.location { draft.location = location }
        draft.resources = [
            DraftResource(
                type: draft.resources[0].type, originalFilename: filename,
                mimeType: draft.resources[0].mimeType, fileSize: identity.size,
                path: staged?.storedPath ?? path, isOwnedByLibrary: mode != .reference)
        ]
        let file = SourceFile(
            contentHash: draft.contentHash, sourceRoot: sourceRoot, sourcePath: path,
            groupKey: MediaFileKind.groupKey(ofPath: path), role: kind.role(fileName: filename),
            identity: identity)
        return PreparedFile(
            sourcePath: path, mode: mode, staged: staged, draft: draft, file: file,
            firstRendition: contents.map(PreparedFile.FirstRendition.fromContents),
            annotationProblems: annotations.problems, sidecar: annotations.sidecar,
            sidecarIdentity: annotations.sidecarIdentity)
    }

    /// The whole file, `size` bytes as `fstat` gave them; a file that turns out shorter is still being written.
    private static func readWhole(_ descriptor: Int32, size: Int) throws(ImportFailure) -> EncodedBuffer {
        try EncodedBuffer(count: size) { buffer throws(ImportFailure) in
            var offset = 0
            while offset < size {
                let count = pread(descriptor, buffer.baseAddress! + offset, size - offset, off_t(offset))
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    throw .system("cannot read")
                }
                guard count > 0 else {
                    throw ImportFailure(kind: .changing, reason: "the file changed while it was read")
                }
                offset += count
            }
        }
    }
}
