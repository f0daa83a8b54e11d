import Digests
import Foundation
import Glibc
import HexEncoding
import PhotoModel

/// The library's own files: `originals/YYYY/MM/NAME`, names kept and made unique, and `edits/XX/ASSET-ID.EXT`.
///
/// A file comes in through `incoming/`: copied under a temporary name and linked to its final name (whose path is
/// recorded beside it first, as the symbolic link `ID.target`) before the commit; it is synced before the commit (an edit, a
/// `PerformChanges` batch) or after it (see `StoreSync`). Once the commit and the copy are both durable the temporary
/// names go (and the final name too when the commit failed). A crash in between leaves the temporary names, and
/// `recover` finishes the job, so the store never keeps a copy that no asset uses.
package struct LibraryFileStore: Sendable {
    /// A copy linked into the store whose commit is pending.
    struct StagedFile: Sendable {
        var temporaryPath: String
        var targetPath: String
        var storedPath: String
        /// SHA-256 of the content, lowercase hex.
        var hash: String
    }

    package let originals: String
    /// Rendered edits, beside the originals they were made from.
    let edits: String
    let incoming: String

    package init(libraryPath: String) {
        originals = libraryPath + "/originals"
        edits = libraryPath + "/edits"
        incoming = libraryPath + "/incoming"
    }

    /// Creates the store's folders.
    package func createDirectories() throws {
        for directory in [originals, edits, incoming] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
    }

    /// Copies the open file (from `contents` when it was read into memory) into the store under a unique variant
    /// of `name`, in the folder of the month it was taken.
    func stage(descriptor: Int32, contents: UnsafeRawBufferPointer?, named name: String,
               takenAt date: Timestamp?) throws(ImportFailure) -> StagedFile {
        let day = (date ?? Timestamp(secondsSince1970: Date().timeIntervalSince1970)).localDay
        return try stage(named: name, into: "\(originals)/\(day.prefix(4))/\(day.dropFirst(5).prefix(2))",
                         keepingTimesOf: descriptor) { chunk throws(ImportFailure) in
            if let contents { try chunk(contents) } else { try Self.readChunks(descriptor, chunk) }
        }
    }

    /// Copies the rendered file of an edit of `assetId` into the store's `edits` folder, synced.
    func stageEdit(of assetId: String, descriptor: Int32, fileExtension: String) throws(ImportFailure) -> StagedFile {
        try syncing(stage(named: "\(assetId).\(fileExtension)", into: editsDirectory(of: assetId)) { chunk throws(ImportFailure) in
            try Self.readChunks(descriptor, chunk)
        })
    }

    /// Writes the rendered bytes of an edit of `assetId` into the store's `edits` folder, synced.
    func stageEdit(of assetId: String, bytes: [UInt8], fileExtension: String) throws(ImportFailure) -> StagedFile {
        try syncing(stage(named: "\(assetId).\(fileExtension)", into: editsDirectory(of: assetId)) { chunk throws(ImportFailure) in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
            defer { buffer.deallocate() }
            buffer.copyBytes(from: bytes)
            try chunk(UnsafeRawBufferPointer(buffer))
        })
    }

    /// `staged`, once synced; dropped when it cannot be.
    private func syncing(_ staged: StagedFile) throws(ImportFailure) -> StagedFile {
        do {
            try sync([staged.storedPath])
        } catch {
            settle(staged, isKept: false)
            throw error
        }
        return staged
    }

    /// Syncs the files at `paths` and then their folders (each once), so their content and names are on disk.
    /// A file that is gone needs nothing.
    func sync(_ paths: [String]) throws(ImportFailure) {
        var folders: Set<String> = []
        for path in paths {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT { continue }
                throw .system("cannot open the copy to sync it")
            }
            defer { close(descriptor) }
            guard fsync(descriptor) == 0 else { throw .system("cannot sync the copy") }
            folders.insert((path as NSString).deletingLastPathComponent)
        }
        for folder in folders where !FolderSync.sync(folder) {
            throw .system("cannot sync the folder")
        }
    }

    /// Writes the content of `source` again as the library's copy at `storedPath` when the source still has the
    /// content `hash`; true when it did. For a copy a crash of the machine left incomplete.
    func restore(_ storedPath: String, from source: String, hash: String) throws(ImportFailure) -> Bool {
        let input = open(source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard input >= 0 else { return false }
        defer { close(input) }
        // Without a `.target` beside it, `recover` removes what a crash leaves of it.
        let temporary = "\(incoming)/\(UUID().uuidString).importing"
        let output = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw .system("cannot write to the library") }
        defer { unlink(temporary) }
        do {
            defer { close(output) }
            // One read of the source: hashed as it is copied, and the copy used only if the hash matches.
            var hasher = SHA256Hasher()
            try Self.readChunks(input) { chunk throws(ImportFailure) in
                hasher.update(chunk)
                try Self.write(chunk, to: output)
            }
            guard hasher.finalize().lowercaseHex == hash else { return false }
            var info = stat()
            if fstat(input, &info) == 0 { _ = futimens(output, [info.st_atim, info.st_mtim]) }
            guard fsync(output) == 0 else { throw .system("cannot sync the copy") }
        }
        do {
            try FileManager.default.createDirectory(atPath: (storedPath as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
        } catch {
            throw .system("cannot create the folder of \(storedPath)", error: error)
        }
        guard rename(temporary, storedPath) == 0 else { throw .system("cannot replace the copy") }
        return true
    }

    /// Edits live in `edits/XX/`, XX the first two characters of the asset's id.
    private func editsDirectory(of assetId: String) -> String {
        "\(edits)/\(assetId.prefix(2))"
    }

    /// Writes the bytes `feed` hands over under a temporary name and links them to a unique variant of `name` in
    /// `directory`, unsynced. The copy takes the access and modification times of the file open as `original`.
    private func stage(named name: String, into directory: String, keepingTimesOf original: Int32? = nil,
                       feed: ((UnsafeRawBufferPointer) throws(ImportFailure) -> Void) throws(ImportFailure) -> Void)
        throws(ImportFailure) -> StagedFile
    {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .system("cannot create \(directory)", error: error)
        }
        let id = UUID().uuidString
        let temporary = "\(incoming)/\(id).importing", target = "\(incoming)/\(id).target"
        let output = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw .system("cannot write to the library") }
        var isStaged = false
        var storedPath: String?
        defer {
            if !isStaged {
                if let storedPath { unlinkIfSameFile(storedPath, as: temporary) }
                unlink(temporary)
                unlink(target)
            }
        }
        var hasher = SHA256Hasher()
        do {
            defer { close(output) }
            try feed { chunk throws(ImportFailure) in
                hasher.update(chunk)
                try Self.write(chunk, to: output)
            }
            var info = stat()
            if let original, fstat(original, &info) == 0 {
                let times = [info.st_atim, info.st_mtim]
                _ = futimens(output, times)
            }
            storedPath = try link(temporary, into: directory, named: name, recordingIn: target)
        }
        isStaged = true
        return StagedFile(temporaryPath: temporary, targetPath: target, storedPath: storedPath!, hash: hasher.finalize().lowercaseHex)
    }

    /// After the commit: drop the temporary names, and the stored copy too unless the library now uses it.
    func settle(_ staged: StagedFile, isKept: Bool) {
        if !isKept { unlinkIfSameFile(staged.storedPath, as: staged.temporaryPath) }
        unlink(staged.temporaryPath)
        unlink(staged.targetPath)
    }

    /// Finishes imports a crash interrupted: a stored copy stays only if `isResourceFile` says an asset uses it.
    package func recover(isResourceFile: (String) async throws -> Bool) async throws -> Int {
        var recovered = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: incoming)) ?? [] where name.hasSuffix(".importing") {
            let temporary = "\(incoming)/\(name)"
            let target = String(temporary.dropLast(".importing".count)) + ".target"
            if let storedPath = Self.recordedPath(in: target), try await !isResourceFile(storedPath) {
                unlinkIfSameFile(storedPath, as: temporary)
            }
            unlink(temporary)
            unlink(target)
            recovered += 1
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: incoming)) ?? [] where name.hasSuffix(".target") {
            unlink("\(incoming)/\(name)")
        }
        return recovered
    }

    /// SHA-256 of `bytes`, lowercase hex.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> String {
        Digest.sha256(bytes).lowercaseHex
    }

    /// SHA-256 of the content of the file at `path`, lowercase hex.
    func hash(ofFileAt path: String) throws(ImportFailure) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system("cannot open the library's copy") }
        defer { close(descriptor) }
        return try Self.hash(descriptor: descriptor)
    }

    /// SHA-256 of the file's content, lowercase hex.
    static func hash(descriptor: Int32) throws(ImportFailure) -> String {
        var hasher = SHA256Hasher()
        try readChunks(descriptor) { hasher.update($0) }
        return hasher.finalize().lowercaseHex
    }

    /// Links `temporary` to the first free variant of `name` ("name (1).jpg"…), recording each attempt in `target` first.
    private func link(_ temporary: String, into directory: String, named name: String,
                      recordingIn target: String) throws(ImportFailure) -> String {
        let stem = (name as NSString).deletingPathExtension, fileExtension = (name as NSString).pathExtension
        for attempt in 0..<10_000 {
            let suffix = (attempt == 0 ? "" : " (\(attempt))") + (fileExtension.isEmpty ? "" : ".\(fileExtension)")
            let path = "\(directory)/\(Self.fitting(stem, before: suffix))"
            try record(path, in: target)
            if Glibc.link(temporary, path) == 0 { return path }
            guard errno == EEXIST else { throw .system("cannot name the copy") }
        }
        throw .failed("no free name for \(name) in \(directory)")
    }

    /// Records `path` as the symbolic link `target`: a power cut that keeps the store's new name keeps this name made
    /// before it, text and all (a file's unsynced content could be lost, and `recover` miss the copy).
    private func record(_ path: String, in target: String) throws(ImportFailure) {
        unlink(target)
        guard symlink(path, target) == 0 else { throw .system("cannot write to the library") }
    }

    /// The path recorded in `target`: a symbolic link's text, or the content of a file an earlier version wrote.
    private static func recordedPath(in target: String) -> String? {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: target))
            ?? (try? String(contentsOfFile: target, encoding: .utf8))
        return path?.isEmpty == false ? path : nil
    }

    /// `stem + suffix`, with `stem` shortened (whole characters) so the name fits in 255 bytes.
    private static func fitting(_ stem: String, before suffix: String) -> String {
        var stem = Substring(stem)
        while stem.utf8.count + suffix.utf8.count > 255, !stem.isEmpty { stem = stem.dropLast() }
        return stem + suffix
    }

    private func unlinkIfSameFile(_ path: String, as reference: String) {
        var stored = stat(), temporary = stat()
        guard lstat(path, &stored) == 0, lstat(reference, &temporary) == 0,
              stored.st_dev == temporary.st_dev, stored.st_ino == temporary.st_ino else { return }
        unlink(path)
    }

    private static func write(_ chunk: UnsafeRawBufferPointer, to output: Int32) throws(ImportFailure) {
        var written = 0
        while written < chunk.count {
            let result = Glibc.write(output, chunk.baseAddress! + written, chunk.count - written)
            guard result > 0 else { throw .system("cannot write to the library") }
            written += result
        }
    }

    private static func readChunks(_ descriptor: Int32,
                                   _ body: (UnsafeRawBufferPointer) throws(ImportFailure) -> Void) throws(ImportFailure) {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw .system("cannot read") }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .system("cannot read")
            }
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
