import Crypto
import Foundation
import Glibc
import Imaging
import LibraryStore
import Logging
import MediaProbe
import NIOPosix
import PhotoModel
import PhotolibConfig
import Varlink

/// Why a file did not become an asset.
struct ImportFailure: Error, CustomStringConvertible {
    enum Kind: String {
        /// Not a format the library takes; left alone.
        case unsupported
        /// Broken, unreadable or refused; reported.
        case failed
        /// The file changed while it was read; it is read again later.
        case changing
        /// The file was gone before it could be read.
        case vanished
        /// A fault that may pass by itself kept the file out: the library's disk full or read-only, an I/O error.
        /// The file stays where it is and is tried again (see `ImportRetry`).
        case passingFault
    }

    var kind: Kind
    var reason: String
    var description: String { reason }

    static func failed(_ reason: String) -> ImportFailure { ImportFailure(kind: .failed, reason: reason) }

    /// A failure naming the system error in `errno`.
    static func system(_ action: String) -> ImportFailure {
        let kind: Kind = switch errno {
        case ENOENT: .vanished
        // A disk full, read-only or failing, or gone from under a source (a dead share, a pulled disk).
        case ENOSPC, EDQUOT, EROFS, EIO, ENOTCONN, ENODEV, ENXIO, ESTALE: .passingFault
        default: .failed
        }
        return ImportFailure(kind: kind, reason: "\(action): \(String(cString: strerror(errno)))")
    }
}

/// A file read, hashed and (in copy and move modes) copied into the store, ready to commit as an asset.
struct PreparedFile: Sendable {
    var sourcePath: String
    var mode: SourceMode
    /// The copy in the library's store, for copy and move modes.
    var staged: LibraryFileStore.StagedFile?
    var draft: AssetDraft
    var file: SourceFile
    /// A still's bytes, read once for its hash, copy and metadata, and kept for its first rendition.
    var contents: EncodedBuffer?
    /// What could not be read of the file's annotations and its sidecar (each ignored), to log.
    var annotationProblems: [(path: String, reason: String)] = []
    /// The sidecar read with the file, and its identity then.
    var sidecar: String?
    var sidecarIdentity: FileIdentity?
    /// The store copies of the asset's other resources (a created Live Photo's movie, a RAW beside its JPEG).
    var companions: [LibraryFileStore.StagedFile] = []

    /// The commit request for this file, committed on its own: a store copy is synced after it (see `StoreSync`).
    func ingestRequest(album: String? = nil) -> IngestRequest {
        var request = IngestRequest(draft: draft, file: file, isReference: mode == .reference, album: album,
                                    defersSync: staged != nil)
        if mode == .reference {
            request.sidecarPath = sidecar
            request.sidecarIdentity = sidecarIdentity
        }
        return request
    }
}

/// Turns files into asset drafts: checks access, reads metadata (libvips, ffprobe), hashes, copies into the store.
///
/// All file work runs on a thread pool, never on an event loop.
struct Importer: Sendable {
    /// `F_SETLEASE`, which Glibc's Swift module does not import.
    private static let setLease: Int32 = 1024
    /// Stills up to this size are read into memory whole, once, for their hash, copy, metadata and first rendition;
    /// larger files, videos, RAW files and the files of a busy import are read in chunks (a whole file passes
    /// through memory three times, a chunk through the processor's cache).
    static let wholeReadLimit: Int64 = 64 << 20

    let fileStore: LibraryFileStore
    let threadPool: NIOThreadPool
    let metadataReader: ImageMetadataReader
    let rawReader: RawImageReader
    let mediaProber: MediaProber

    /// Every metadata tag of a file, read on the thread pool.
    func embeddedMetadata(ofFileAt path: String) async throws -> AssetMetadata {
        try await threadPool.runIfActive { try EmbeddedMetadataReader().read(path: path) }
    }

    /// The camera data of an asset's primary file, read on the thread pool; nil when the file cannot be read.
    func readCameraData(of asset: AssetAwaitingCameraData) async -> CameraData? {
        try? await threadPool.runIfActive { [self] () throws -> CameraData in
            switch asset.mediaType {
            case .image where MediaFileKind(fileName: asset.path) == .raw: try rawReader.info(ofFileAt: asset.path).camera
            case .image: try metadataReader.readMetadata(atPath: asset.path).camera
            case .video: try mediaProber.probe(path: asset.path).camera
            default: CameraData()
            }
        }
    }

    /// Prepares one file named by a client; `caller` must be able to read it. `filename`, when given, is the name
    /// the file is kept and known under.
    func prepare(path: String, mode: SourceMode, caller: PeerCredentials?, filename: String? = nil) async throws -> PreparedFile {
        guard MediaFileKind(fileName: filename ?? path) != nil else {
            var info = stat()
            if CallerFileAccess.canRead(path, peer: caller), stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                throw ImportFailure(kind: .unsupported, reason: "a folder: import the files in it")
            }
            let fileExtension = (path as NSString).pathExtension
            throw ImportFailure(kind: .unsupported, reason: fileExtension.isEmpty
                ? "a file name without an extension, so not a known photo, video or audio format"
                : "'.\(fileExtension)' files are not a supported photo, video or audio format")
        }
        guard CallerFileAccess.canRead(path, peer: caller) else {
            throw ImportFailure.failed("the calling user cannot read this file")
        }
        return try await threadPool.runIfActive { [self] in
            try prepareBlocking(path: path, filename: filename, mode: mode, sourceRoot: nil, followsSymlinks: true,
                                keepsContents: true)
        }
    }

    /// Prepares the bytes a client uploaded (kept by the daemon, in `path`) as the file `filename`, copied into the store.
    func prepare(uploadAt path: String, filename: String) async throws -> PreparedFile {
        guard MediaFileKind(fileName: filename) != nil else {
            throw ImportFailure(kind: .unsupported, reason: "'\(filename)' is not a supported photo, video or audio format")
        }
        return try await threadPool.runIfActive { [self] in
            try prepareBlocking(path: path, filename: filename, mode: .copy, sourceRoot: nil, followsSymlinks: false,
                                keepsContents: true)
        }
    }

    /// Prepares a file found in the import source at `sourceRoot`; symbolic links are never followed. A still is
    /// read whole, for its first rendition, when `keepsContents`.
    func prepare(sourceFile path: String, mode: SourceMode, sourceRoot: String, keepsContents: Bool) async throws -> PreparedFile {
        try await threadPool.runIfActive { [self] in
            try prepareBlocking(path: path, filename: nil, mode: mode, sourceRoot: sourceRoot, followsSymlinks: false,
                                keepsContents: keepsContents)
        }
    }

    /// After an ingest commit: keep or drop the store copies; in move mode remove the source once the library holds
    /// its content.
    func finish(_ file: PreparedFile, outcome: IngestOutcome?, logger: Logger) async {
        for staged in [file.staged].compactMap({ $0 }) + file.companions {
            fileStore.settle(staged, isKept: outcome?.usesFile ?? false)
        }
        guard file.mode == .move, let outcome else { return }
        if case .duplicate(let assetId, let libraryCopy) = outcome {
            // Remove a dropped duplicate only when the library's own copy is there with the same content.
            guard let libraryCopy, await storedCopy(libraryCopy, matches: file.draft.contentHash) else {
                logger.notice("A duplicate in the drop folder stays: the library's copy is missing or differs",
                              metadata: ["path": "\(file.sourcePath)", "asset": "\(assetId)"])
                return
            }
            logger.info("removed a duplicate from the drop folder: the library has it already",
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
            return logger.notice("A file in the drop folder changed after it was imported and stays",
                                 metadata: ["path": "\(file.sourcePath)"])
        }
        if unlink(file.sourcePath) != 0 && errno != ENOENT {
            logger.warning("could not remove moved file", metadata: ["path": "\(file.sourcePath)", "errno": "\(errno)"])
        }
    }

    private func storedCopy(_ path: String, matches hash: String) async -> Bool {
        let stored = try? await threadPool.runIfActive { [fileStore] in try fileStore.hash(ofFileAt: path) }
        return stored == hash
    }

    private func prepareBlocking(path: String, filename: String?, mode: SourceMode, sourceRoot: String?, followsSymlinks: Bool,
                                 keepsContents: Bool) throws -> PreparedFile {
        let filename = filename ?? (path as NSString).lastPathComponent
        guard let kind = MediaFileKind(fileName: filename) else {
            throw ImportFailure(kind: .unsupported, reason: "not a supported media format")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followsSymlinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            throw errno == ELOOP ? ImportFailure(kind: .unsupported, reason: "a symbolic link") : ImportFailure.system("cannot open")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ImportFailure.system("cannot stat") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw ImportFailure(kind: .unsupported, reason: "not a regular file") }
        guard info.st_size > 0 else { throw ImportFailure.failed("the file is empty") }
        let identity = FileIdentity(info)
        // A read lease is refused while any process has the file open for writing: it is not complete yet.
        if fcntl(descriptor, Self.setLease, Int32(F_RDLCK)) != 0, errno == EAGAIN {
            throw ImportFailure(kind: .changing, reason: "another program is still writing the file")
        }
        defer { _ = fcntl(descriptor, Self.setLease, Int32(F_UNLCK)) }

        let contents = keepsContents && kind == .image && identity.size <= Self.wholeReadLimit
            ? try Self.readWhole(descriptor, size: Int(identity.size)) : nil
        var draft = try describe(path: path, kind: kind, filename: filename, identity: identity, contents: contents)
        let annotations = FileAnnotations(path: path, kind: kind, contents: contents)
        draft.annotations = annotations.annotations
        var staged: LibraryFileStore.StagedFile?
        if mode == .reference {
            draft.contentHash = try contents.map { LibraryFileStore.hash($0.contents) } ?? LibraryFileStore.hash(descriptor: descriptor)
        } else {
            let copy = try fileStore.stage(descriptor: descriptor, contents: contents?.contents, named: filename,
                                           takenAt: draft.creationDate)
            staged = copy
            draft.contentHash = copy.hash
        }
        guard fstat(descriptor, &info) == 0, FileIdentity(info) == identity else {
            if let staged { fileStore.settle(staged, isKept: false) }
            throw ImportFailure(kind: .changing, reason: "the file changed while it was read")
        }
        draft.resources = [DraftResource(type: draft.resources[0].type, originalFilename: filename,
                                         mimeType: draft.resources[0].mimeType, fileSize: identity.size,
                                         path: staged?.storedPath ?? path, isOwnedByLibrary: mode != .reference)]
        let file = SourceFile(contentHash: draft.contentHash, sourceRoot: sourceRoot, sourcePath: path,
                              groupKey: MediaFileKind.groupKey(ofPath: path), role: kind.role(fileName: filename),
                              identity: identity)
        return PreparedFile(sourcePath: path, mode: mode, staged: staged, draft: draft, file: file, contents: contents,
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
                guard count > 0 else { throw ImportFailure(kind: .changing, reason: "the file changed while it was read") }
                offset += count
            }
        }
    }

    /// A RAW file's capture time with its offset where the camera wrote one: libvips reads the EXIF of TIFF-based
    /// RAW files, LibRaw reads no offsets, so exiftool (when installed) reads the others' (CR3, RAF, ORF, RW2…).
    private func captureTime(ofRAWAt path: String, libRaw: RawImageInfo, libvips: ImageMetadata?) -> ExifDateTime? {
        if let time = libvips?.dateTimeOriginal, time.utcOffsetSeconds != nil { return time }
        let fallback = libvips?.dateTimeOriginal ?? libRaw.captureTime
        guard let exif = try? EmbeddedMetadataReader().read(path: path).exif, let text = exif["DateTimeOriginal"],
              let time = ExifDateTime(exifText: text, subseconds: exif["SubsecTimeOriginal"], offset: exif["OffsetTimeOriginal"])
        else { return fallback }
        return time
    }

    /// The smart albums Apple keeps by rule for videos: slow motion and time-lapse, as the file's frame rates tell.
    private static func videoSubtypes(of info: MediaInfo) -> MediaSubtypes {
        var subtypes: MediaSubtypes = []
        if info.isSlowMotion { subtypes.insert(.videoHighFrameRate) }
        if info.isTimeLapse { subtypes.insert(.videoTimelapse) }
        return subtypes
    }

    /// The photo asset a still or RAW file makes, before its content hash and stored path are known.
    private func photoDraft(filename: String, clues: CaptureDate.Clues, mimeType: String, fileSize: Int64, path: String,
                            size: (width: Int, height: Int, orientation: Int), captureTime: ExifDateTime?, gpsTime: Date?,
                            location: GeoLocation?, camera: CameraData) -> AssetDraft {
        let (date, source) = CaptureDate.resolve(exif: captureTime, gps: gpsTime, clues: clues)
        let isScreenshot = filename.hasPrefix("Screenshot") || filename.hasPrefix("Screen Shot")
        var draft = AssetDraft(
            mediaType: .image, mediaSubtypes: isScreenshot ? .photoScreenshot : [],
            pixelWidth: size.width, pixelHeight: size.height, orientation: size.orientation,
            creationDate: date, creationDateSource: source,
            location: location.map { Location(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude) },
            contentHash: "",
            resources: [DraftResource(type: .photo, originalFilename: filename, mimeType: mimeType, fileSize: fileSize,
                                      path: path, isOwnedByLibrary: false)])
        draft.camera = camera
        return draft
    }

    /// What `read` returns; its failure fails the file's import with the reader's reason.
    private func failingImport<Value, Failure: Error & CustomStringConvertible>(
        _ read: () throws(Failure) -> Value
    ) throws(ImportFailure) -> Value {
        do {
            return try read()
        } catch {
            throw .failed(error.description)
        }
    }

    /// The asset a file makes on its own, before its content hash and stored path are known; a still's metadata is
    /// read from `contents` when the file was read into memory.
    private func describe(path: String, kind: MediaFileKind, filename: String, identity: FileIdentity,
                          contents: EncodedBuffer?) throws -> AssetDraft {
        let fileExtension = (filename as NSString).pathExtension.lowercased()
        let clues = CaptureDate.Clues(fileName: filename, modificationTime: identity.modificationSeconds)
        switch kind {
        case .image:
            let metadata = try failingImport { () throws(ImagingError) in
                if let contents {
                    try metadataReader.readMetadata(of: contents, atPath: path)
                } else {
                    try metadataReader.readMetadata(atPath: path)
                }
            }
            var draft = photoDraft(filename: filename, clues: clues, mimeType: metadata.mimeType, fileSize: identity.size,
                                   path: path, size: (metadata.pixelWidth, metadata.pixelHeight, metadata.orientation),
                                   captureTime: metadata.dateTimeOriginal, gpsTime: metadata.gpsTimestamp,
                                   location: metadata.location, camera: metadata.camera)
            // The smart albums Apple keeps by rule: animated images, portraits with depth.
            if metadata.pageCount > 1 { draft.mediaSubtypes.insert(.photoAnimated) }
            if let rendered = metadata.customRendered, rendered == 7 || rendered == 8 {
                draft.mediaSubtypes.insert(.photoDepthEffect)
            }
            return draft
        case .raw:
            // LibRaw knows the image a RAW file decodes to; libvips reads the EXIF of the TIFF-based ones (DNG, NEF,
            // CR2, ARW...), with the offsets and sub-seconds LibRaw does not give.
            let raw = try failingImport { () throws(ImagingError) in try rawReader.info(ofFileAt: path) }
            let exif = try? metadataReader.readMetadata(atPath: path)
            return photoDraft(filename: filename, clues: clues, mimeType: MediaFileKind.rawMimeTypes[fileExtension]!,
                              fileSize: identity.size, path: path, size: (raw.pixelWidth, raw.pixelHeight, raw.orientation),
                              captureTime: captureTime(ofRAWAt: path, libRaw: raw, libvips: exif), gpsTime: exif?.gpsTimestamp,
                              location: exif?.location ?? raw.location,
                              camera: (exif?.camera).map { $0.filling(from: raw.camera) } ?? raw.camera)
        case .video, .audio:
            let info = try failingImport { () throws(MediaProbeError) in try mediaProber.probe(path: path) }
            let isVideo = info.kind == .video && kind == .video
            let (date, source) = CaptureDate.resolve(media: info, clues: clues)
            let mimeType = isVideo ? MediaFileKind.videoMimeTypes[fileExtension] : MediaFileKind.audioMimeTypes[fileExtension]
            var draft = AssetDraft(
                mediaType: isVideo ? .video : .audio,
                mediaSubtypes: isVideo ? Self.videoSubtypes(of: info) : [],
                pixelWidth: isVideo ? info.pixelWidth : 0, pixelHeight: isVideo ? info.pixelHeight : 0, orientation: 1,
                creationDate: date, creationDateSource: source, location: info.location, duration: info.duration,
                contentHash: "",
                resources: [DraftResource(type: isVideo ? .video : .audio, originalFilename: filename,
                                          mimeType: mimeType ?? "application/octet-stream", fileSize: identity.size,
                                          path: path, isOwnedByLibrary: false)])
            draft.camera = info.camera
            return draft
        }
    }
}

/// Picks an asset's creation date from what the file says, best source first.
enum CaptureDate {
    /// What the file system and the file's name tell, the fallbacks after the file's own metadata.
    struct Clues {
        var fileName: String
        var modificationTime: Double
    }

    /// EXIF DateTimeOriginal (with its offset, else one the GPS clock implies, else the daemon's), else the GPS
    /// clock, else the file name, else the modification time.
    static func resolve(exif: ExifDateTime?, gps: Date?, clues: Clues) -> (Timestamp, CreationDateSource) {
        if let exif {
            func wallClock(at offset: Int) -> Timestamp {
                Timestamp(year: exif.year, month: exif.month, day: exif.day, hour: exif.hour, minute: exif.minute,
                          second: exif.second, fractionalSecond: exif.fractionalSecond, utcOffsetSeconds: offset)
            }
            if let offset = exif.utcOffsetSeconds { return (wallClock(at: offset), .exif) }
            if let gps, let offset = offset(ofWallClock: wallClock(at: 0).secondsSince1970, gpsClock: gps) {
                return (wallClock(at: offset), .exifWithGPSOffset)
            }
            let offset = localOffset(atLocalYear: exif.year, month: exif.month, day: exif.day, hour: exif.hour)
            return (wallClock(at: offset), .exifWithoutOffset)
        }
        if let gps {
            let seconds = gps.timeIntervalSince1970
            return (Timestamp(secondsSince1970: seconds, utcOffsetSeconds: localOffset(at: seconds)), .gps)
        }
        return resolve(clues)
    }

    /// The container's creation time (in its own offset when it has one), else the file name, else the modification time.
    static func resolve(media: MediaInfo, clues: Clues) -> (Timestamp, CreationDateSource) {
        guard var date = media.creationDate else { return resolve(clues) }
        if !media.creationDateHasLocalOffset { date.utcOffsetSeconds = localOffset(at: date.secondsSince1970) }
        return (date, .mediaMetadata)
    }

    private static func resolve(_ clues: Clues) -> (Timestamp, CreationDateSource) {
        if let named = FileNameDate(fileName: clues.fileName) {
            let offset = localOffset(atLocalYear: named.year, month: named.month, day: named.day, hour: named.hour)
            return (Timestamp(year: named.year, month: named.month, day: named.day, hour: named.hour, minute: named.minute,
                              second: named.second, utcOffsetSeconds: offset), .fileName)
        }
        let seconds = clues.modificationTime
        return (Timestamp(secondsSince1970: seconds, utcOffsetSeconds: localOffset(at: seconds)), .fileModification)
    }

    /// The time zone a camera clock was set to, from its wall-clock time (read as if UTC) and the GPS clock (UTC)
    /// at the same moment: their difference rounded to a quarter hour, when that is a real offset (±14 h) and the
    /// two clocks agree to within five minutes of it.
    static func offset(ofWallClock wallClock: Double, gpsClock: Date) -> Int? {
        let difference = wallClock - gpsClock.timeIntervalSince1970
        let offset = Int((difference / 900).rounded()) * 900
        guard abs(offset) <= 14 * 3_600, abs(difference - Double(offset)) <= 300 else { return nil }
        return offset
    }

    /// The daemon's time zone offset at an instant.
    static func localOffset(at seconds: Double) -> Int {
        TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))
    }

    /// The daemon's time zone offset for a local wall-clock time (dates without an offset).
    private static func localOffset(atLocalYear year: Int, month: Int, day: Int, hour: Int) -> Int {
        let asUTC = Timestamp(year: year, month: month, day: day, hour: hour, minute: 0, second: 0, utcOffsetSeconds: 0)
        return localOffset(at: asUTC.secondsSince1970 - Double(localOffset(at: asUTC.secondsSince1970)))
    }
}
