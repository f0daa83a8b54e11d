import Crypto
import Foundation
import Glibc
import Imaging
import Logging
import NIOPosix
import PhotoModel
import PhotolibConfig
import Varlink

/// Why a file did not become an asset.
struct ImportFailure: Error, CustomStringConvertible {
    enum Kind: String { case unsupported, failed }
    var kind: Kind
    var reason: String
    var description: String { reason }

    static func failed(_ reason: String) -> ImportFailure { ImportFailure(kind: .failed, reason: reason) }
}

/// A file read, hashed and (in copy and move modes) copied into the store, ready to commit as an asset.
struct PreparedFile: Sendable {
    var sourcePath: String
    var mode: SourceMode
    /// The copy in the library's store, for copy and move modes.
    var storedPath: String?
    var draft: AssetDraft
}

/// Turns files into asset drafts: checks access, reads metadata through libvips, hashes, copies into the store.
///
/// All file work runs on a thread pool, never on an event loop.
struct Importer: Sendable {
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "png", "heic", "heif", "webp", "tif", "tiff", "gif"]

    let originalsDirectory: String
    let threadPool: NIOThreadPool
    let metadataReader: ImageMetadataReader

    /// Prepares one file for import; `caller` must be able to read it.
    func prepare(path: String, mode: SourceMode, caller: PeerCredentials?) async throws -> PreparedFile {
        let fileExtension = (path as NSString).pathExtension.lowercased()
        guard Self.imageExtensions.contains(fileExtension) else {
            throw ImportFailure(kind: .unsupported, reason: "'.\(fileExtension)' files are not a supported photo format")
        }
        guard CallerFileAccess.canRead(path, peer: caller) else {
            throw ImportFailure.failed("the calling user cannot read this file")
        }
        return try await threadPool.runIfActive { [self] in try prepareBlocking(path: path, mode: mode) }
    }

    /// After the commit: drop the store copy of a duplicate or uncommitted file; remove a moved file's source.
    func finish(_ file: PreparedFile, committedAs outcome: (id: String, isDuplicate: Bool)?, logger: Logger) {
        let imported = outcome.map { !$0.isDuplicate } ?? false
        if !imported, let storedPath = file.storedPath {
            unlink(storedPath)
        }
        if imported, file.mode == .move, unlink(file.sourcePath) != 0 {
            logger.warning("could not remove moved file", metadata: ["path": "\(file.sourcePath)", "errno": "\(errno)"])
        }
    }

    /// Removes store files of purged assets.
    func removeFiles(_ paths: [String], logger: Logger) {
        for path in paths where unlink(path) != 0 && errno != ENOENT {
            logger.warning("could not remove purged file", metadata: ["path": "\(path)", "errno": "\(errno)"])
        }
    }

    private func prepareBlocking(path: String, mode: SourceMode) throws -> PreparedFile {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw ImportFailure.failed("cannot open: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ImportFailure.failed("cannot stat: \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw ImportFailure(kind: .unsupported, reason: "not a regular file") }
        guard info.st_size > 0 else { throw ImportFailure.failed("the file is empty") }

        let metadata: ImageMetadata
        do {
            metadata = try metadataReader.readMetadata(atPath: path)
        } catch {
            throw ImportFailure.failed(error.description)
        }
        let modificationTime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        let (creationDate, dateSource) = CaptureDate.resolve(metadata: metadata, fileModificationTime: modificationTime)
        let filename = (path as NSString).lastPathComponent

        var storedPath: String?
        let hash: String
        if mode == .reference {
            hash = try StoreFile.hash(descriptor: descriptor)
        } else {
            let directory = StoreFile.directory(in: originalsDirectory, for: creationDate)
            (storedPath, hash) = try StoreFile.copy(descriptor: descriptor, named: filename, into: directory)
        }
        let resource = DraftResource(type: .photo, originalFilename: filename, mimeType: metadata.mimeType,
                                     fileSize: Int64(info.st_size), path: storedPath ?? path,
                                     isOwnedByLibrary: mode != .reference)
        let draft = AssetDraft(
            mediaType: .image, pixelWidth: metadata.pixelWidth, pixelHeight: metadata.pixelHeight,
            orientation: metadata.orientation, creationDate: creationDate, creationDateSource: dateSource,
            location: metadata.location.map { Location(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude) },
            contentHash: hash, resources: [resource])
        return PreparedFile(sourcePath: path, mode: mode, storedPath: storedPath, draft: draft)
    }
}

/// Picks an asset's creation date from what the file says, best source first.
enum CaptureDate {
    static func resolve(metadata: ImageMetadata, fileModificationTime: Double) -> (Timestamp, CreationDateSource) {
        if let exif = metadata.dateTimeOriginal {
            let offset = exif.utcOffsetSeconds
            let fallbackOffset = localOffset(atLocalYear: exif.year, month: exif.month, day: exif.day, hour: exif.hour)
            let timestamp = Timestamp(year: exif.year, month: exif.month, day: exif.day, hour: exif.hour,
                                      minute: exif.minute, second: exif.second, fractionalSecond: exif.fractionalSecond,
                                      utcOffsetSeconds: offset ?? fallbackOffset)
            return (timestamp, offset == nil ? .exifWithoutOffset : .exif)
        }
        if let gps = metadata.gpsTimestamp {
            let seconds = gps.timeIntervalSince1970
            return (Timestamp(secondsSince1970: seconds, utcOffsetSeconds: localOffset(at: seconds)), .gps)
        }
        return (Timestamp(secondsSince1970: fileModificationTime, utcOffsetSeconds: localOffset(at: fileModificationTime)),
                .fileModification)
    }

    /// The daemon's time zone offset at an instant.
    static func localOffset(at seconds: Double) -> Int {
        TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))
    }

    /// The daemon's time zone offset for a local wall-clock time (EXIF dates without an offset).
    private static func localOffset(atLocalYear year: Int, month: Int, day: Int, hour: Int) -> Int {
        let asUTC = Timestamp(year: year, month: month, day: day, hour: hour, minute: 0, second: 0, utcOffsetSeconds: 0)
        return localOffset(at: asUTC.secondsSince1970 - Double(localOffset(at: asUTC.secondsSince1970)))
    }
}

/// The library's file store: `originals/YYYY/MM/NAME`, names kept and made unique, written atomically.
enum StoreFile {
    static func directory(in originals: String, for date: Timestamp) -> String {
        let day = date.localDay
        return "\(originals)/\(day.prefix(4))/\(day.dropFirst(5).prefix(2))"
    }

    /// SHA-256 of the file's content, lowercase hex.
    static func hash(descriptor: Int32) throws -> String {
        var hasher = SHA256()
        try readChunks(descriptor) { hasher.update(bufferPointer: $0) }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// Copies the file into `directory` under a unique variant of `name`, hashing while it copies.
    /// The copy is written to a temporary name, synced, then linked into place, so no partial file ever has a real name.
    static func copy(descriptor: Int32, named name: String, into directory: String) throws -> (path: String, hash: String) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ImportFailure.failed("cannot create \(directory): \(error.localizedDescription)")
        }
        let temporary = "\(directory)/.\(UUID().uuidString).importing"
        let output = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw ImportFailure.failed("cannot write to the library: \(String(cString: strerror(errno)))") }
        defer { unlink(temporary) }
        var hasher = SHA256()
        do {
            defer { close(output) }
            try readChunks(descriptor) { chunk in
                hasher.update(bufferPointer: chunk)
                var written = 0
                while written < chunk.count {
                    let result = write(output, chunk.baseAddress! + written, chunk.count - written)
                    guard result > 0 else {
                        throw ImportFailure.failed("cannot write to the library: \(String(cString: strerror(errno)))")
                    }
                    written += result
                }
            }
            guard fsync(output) == 0 else { throw ImportFailure.failed("cannot sync the copy: \(String(cString: strerror(errno)))") }
        }
        let hash = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        let stem = (name as NSString).deletingPathExtension, fileExtension = (name as NSString).pathExtension
        for attempt in 0..<10_000 {
            let candidate = attempt == 0 ? name : "\(stem) (\(attempt))" + (fileExtension.isEmpty ? "" : ".\(fileExtension)")
            let path = "\(directory)/\(candidate)"
            if link(temporary, path) == 0 { return (path, hash) }
            guard errno == EEXIST else { throw ImportFailure.failed("cannot name the copy: \(String(cString: strerror(errno)))") }
        }
        throw ImportFailure.failed("no free name for \(name) in \(directory)")
    }

    private static func readChunks(_ descriptor: Int32, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw ImportFailure.failed("cannot read: \(String(cString: strerror(errno)))") }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw ImportFailure.failed("cannot read: \(String(cString: strerror(errno)))")
            }
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
