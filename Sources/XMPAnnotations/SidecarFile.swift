import Foundation
import Glibc
import PhotoModel

/// Why a sidecar was not read or written.
public struct SidecarError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    /// Whether the file is not there (nothing to read; nothing wrong).
    public var isMissing = false
    /// Whether the folder or file may not be written: the change stays in the library only.
    public var isNotWritable = false

    init(_ description: String, isMissing: Bool = false, isNotWritable: Bool = false) {
        self.description = description
        self.isMissing = isMissing
        self.isNotWritable = isNotWritable
    }

    /// The error `errno` names, after `action`.
    static func system(_ action: String) -> SidecarError {
        let code = errno
        return SidecarError(
            "\(action): \(String(cString: strerror(code)))", isMissing: code == ENOENT,
            isNotWritable: [EACCES, EPERM, EROFS].contains(code))
    }
}

/// Reading and writing XMP sidecars, the files another program may have written: capped in size, refused when
/// they declare a document type (XMP never needs one; an entity bomb or an external entity needs one), read by
/// exiv2 from memory, written atomically and never over another program's concurrent change.
public enum SidecarFile {
    /// The largest sidecar read: darktable's longest histories are a few hundred KiB.
    public static let maximumSize = 16 << 20

    /// The annotations in the sidecar at `path`.
    public static func read(_ path: String) throws(SidecarError) -> AnnotationReading {
        let bytes = try contents(of: path)
        return try annotations(inSidecarBytes: bytes)
    }

    /// The annotations in a sidecar's bytes (what the fuzz target feeds).
    public static func annotations(inSidecarBytes bytes: [UInt8]) throws(SidecarError) -> AnnotationReading {
        try checkIsPlainXMP(bytes)
        let read = bytes.withUnsafeBytes { buffer in
            Result { () throws(MetadataError) in
                let document = try MetadataDocument(bytes: buffer, isStrict: true)
                var reading = AnnotationProperties.read(document, includesIPTC: false)
                let (location, problems) = LocationProperties.read(document)
                reading.location = location
                reading.problems += problems
                return reading
            }
        }
        do {
            return try read.get()
        } catch {
            throw SidecarError("not readable XMP (\(error.description))")
        }
    }

    /// The whole file at `path`, refused above `maximumSize`; a symbolic link is not followed.
    public static func contents(of path: String) throws(SidecarError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { throw errno == ELOOP ? SidecarError("a symbolic link") : .system("cannot open") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system("cannot stat") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw SidecarError("not a regular file") }
        guard info.st_size <= maximumSize else {
            throw SidecarError("larger than \(maximumSize >> 20) MiB (\(info.st_size) bytes)")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + offset, $0.count - offset, off_t(offset))
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .system("cannot read") }
            guard count > 0 else { break }
            offset += count
        }
        return Array(bytes[..<offset])
    }

    /// Refuses a document type declaration: the parser then never meets an entity to expand or to fetch.
    private static func checkIsPlainXMP(_ bytes: [UInt8]) throws(SidecarError) {
        for marker in ["<!DOCTYPE", "<!ENTITY"] where contains(bytes, marker) {
            throw SidecarError("declares a document type (\(marker)); XMP has none, and its entities are not expanded")
        }
    }

    private static func contains(_ bytes: [UInt8], _ marker: String) -> Bool {
        let needle = Array(marker.utf8)
        guard bytes.count >= needle.count else { return false }
        var start = 0
        while let found = bytes[start...bytes.count - needle.count].firstIndex(of: needle[0]) {
            if bytes[found..<found + needle.count].elementsEqual(needle) { return true }
            start = found + 1
            if start > bytes.count - needle.count { return false }
        }
        return false
    }

    /// Writes `annotations` into the sidecar at `path` (made when missing), keeping every other property in it:
    /// to a temporary file beside it, synced, then renamed over it. When another program changed the sidecar
    /// meanwhile, the merge starts again from its new content, so its change is kept too. `mode` is the new
    /// file's permissions when there was none. With `base` (a sidecar dropped beside a photo), the annotations are
    /// written into `base` instead of into what `path` holds, which it replaces. `location` sets or removes the
    /// sidecar's GPS position, or leaves it as it is.
    public static func write(
        _ annotations: Annotations, location: FieldUpdate<Location> = .unchanged, to path: String,
        mode: mode_t, startingFrom base: [UInt8]? = nil
    ) throws(SidecarError) {
        for _ in 0..<5 {
            let existing: [UInt8]?
            do {
                existing = try contents(of: path)
            } catch  where error.isMissing {
                existing = nil
            }
            let packet = try merged(annotations, location: location, into: base ?? existing)
            let temporary = try writeTemporary(packet, beside: path, mode: existingMode(path) ?? mode)
            // Another program's write between our read and now would be lost by the rename: read again, and merge again.
            let current = try? contents(of: path)
            guard current == existing else {
                unlink(temporary)
                continue
            }
            guard rename(temporary, path) == 0 else {
                let error = SidecarError.system("cannot rename the new sidecar into place")
                unlink(temporary)
                throw error
            }
            syncFolder(of: path)
            return
        }
        throw SidecarError("another program kept changing the sidecar; try again")
    }

    /// The XMP packet of `existing` (an empty one when nil) with `annotations` (and `location`) written in.
    static func merged(
        _ annotations: Annotations, location: FieldUpdate<Location> = .unchanged,
        into existing: [UInt8]?
    ) throws(SidecarError) -> [UInt8] {
        let source = existing ?? Array(emptyPacket.utf8)
        try checkIsPlainXMP(source)
        let written = source.withUnsafeBytes { buffer in
            Result { () throws(MetadataError) in
                let document = try MetadataDocument(bytes: buffer, isStrict: true)
                try AnnotationProperties.write(annotations, into: document)
                try LocationProperties.write(location, into: document)
                return Array(try document.xmpPacket().utf8)
            }
        }
        do {
            return try written.get()
        } catch {
            throw SidecarError("the sidecar is not readable XMP and is left as it is (\(error.description))")
        }
    }

    private static let emptyPacket = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">\
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""/>\
        </rdf:RDF></x:xmpmeta><?xpacket end="w"?>
        """

    private static func existingMode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// A hidden temporary file beside `path` holding `bytes`, synced; its name starts with a dot so that folder
    /// watchers take it for no sidecar.
    private static func writeTemporary(_ bytes: [UInt8], beside path: String, mode: mode_t) throws(SidecarError)
        -> String
    {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(folder)/.\(name).photolibd-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .system("cannot create a file in the sidecar's folder") }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let error = SidecarError.system("cannot write the new sidecar")
                unlink(temporary)
                throw error
            }
            offset += count
        }
        guard fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else {
            let error = SidecarError.system("cannot sync the new sidecar")
            unlink(temporary)
            throw error
        }
        return temporary
    }

    /// Makes a rename in the folder of `path` durable.
    private static func syncFolder(of path: String) {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let descriptor = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
