import CGexiv2
import Foundation
import Synchronization

/// Why metadata could not be read or written, with exiv2's own words.
public struct MetadataError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// One file's metadata (an image's embedded XMP, IPTC and EXIF, or an XMP sidecar) opened by exiv2 through gexiv2.
///
/// Exiv2's XMP toolkit is not thread-safe (its namespace registry is global), so every call into it holds one
/// process-wide lock; a document is used by one thread at a time. Exiv2's log messages are collected while the
/// lock is held: an error among them means the XMP could not be parsed, although exiv2 itself carries on.
final class MetadataDocument {
    private let handle: UnsafeMutablePointer<GExiv2Metadata>

    /// Opens metadata from `bytes` (an image file or an XMP packet), which are read in place. `isStrict` (for a
    /// sidecar, which is nothing but XMP): an error exiv2 logs while reading fails the opening; otherwise (an
    /// image, whose broken maker note says nothing of its XMP) only exiv2's refusal does.
    convenience init(bytes: UnsafeRawBufferPointer, isStrict: Bool) throws(MetadataError) {
        let refusal = ExivInputCheck.refusal(size: bytes.count) { offset, count in
            Array(bytes[min(offset, bytes.count)..<min(offset + count, bytes.count)])
        }
        if let refusal { throw refusal }
        try self.init(isStrict: isStrict) { handle, error in
            gexiv2_metadata_open_buf(
                handle, bytes.baseAddress?.assumingMemoryBound(to: guint8.self), glong(bytes.count), &error)
        }
    }

    /// Opens the metadata of the image file at `path`.
    convenience init(path: String) throws(MetadataError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw MetadataError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw MetadataError("cannot stat \(path): \(String(cString: strerror(errno)))")
        }
        let refusal = ExivInputCheck.refusal(size: Int(info.st_size)) { offset, count in
            var bytes = [UInt8](repeating: 0, count: count)
            let read = pread(descriptor, &bytes, count, off_t(offset))
            return Array(bytes.prefix(max(read, 0)))
        }
        if let refusal { throw refusal }
        // exiv2 opens the file whose header was checked, not whatever the path names by then.
        try self.init(isStrict: false) { handle, error in
            gexiv2_metadata_open_path(handle, "/proc/self/fd/\(descriptor)", &error)
        }
    }

    private init(
        isStrict: Bool,
        opening open: (UnsafeMutablePointer<GExiv2Metadata>, inout UnsafeMutablePointer<GError>?) -> gboolean
    ) throws(MetadataError) {
        _ = Self.initializeOnce
        let handle = gexiv2_metadata_new()!
        var refusal: String?
        let logged = Self.collectingProblems { () -> String? in
            var error: UnsafeMutablePointer<GError>?
            refusal = open(handle, &error) != 0 ? nil : Self.message(of: error) ?? "exiv2 could not open it"
            return refusal
        }
        if let problem = refusal ?? (isStrict ? logged.first : nil) {
            Self.lock.withLock { _ in cgexiv2_release(handle) }
            throw MetadataError(problem)
        }
        self.handle = handle
    }

    deinit {
        Self.lock.withLock { _ in cgexiv2_release(handle) }
    }

    /// The values of `tag` (`Xmp.dc.subject`, `Iptc.Application2.Keywords`): a list's items, a language
    /// alternative's entries as `lang="x-default" text`, a single value alone; nil when the tag is absent.
    func values(of tag: String) -> [String]? {
        Self.lock.withLock { _ -> [String]? in
            var error: UnsafeMutablePointer<GError>?
            guard gexiv2_metadata_try_has_tag(handle, tag, &error) != 0 else {
                Self.discard(error)
                return nil
            }
            guard let list = gexiv2_metadata_try_get_tag_multiple(handle, tag, &error) else {
                Self.discard(error)
                return nil
            }
            defer { cgexiv2_free_strings(list) }
            var values: [String] = []
            var index = 0
            while let item = list[index] {
                values.append(String(decoding: UnsafeRawBufferPointer(start: item, count: strlen(item)), as: UTF8.self))
                index += 1
            }
            return values
        }
    }

    /// Sets a single value (`Xmp.xmp.Rating`) or a language alternative's text (`lang="x-default" text`).
    func set(_ tag: String, to value: String) throws(MetadataError) {
        try Self.check { error in gexiv2_metadata_try_set_tag_string(handle, tag, value, &error) != 0 }
    }

    /// Sets a list (`Xmp.dc.subject`), replacing its items.
    func set(_ tag: String, to values: [String]) throws(MetadataError) {
        let copies = values.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var list = copies.map { UnsafePointer($0) } + [nil]
        let result = list.withUnsafeMutableBufferPointer { list -> Result<Void, MetadataError> in
            let items = list.baseAddress
            return Result { () throws(MetadataError) in
                try Self.check { error in
                    // Cleared first: gexiv2 appends to an existing list of another array type instead of replacing it.
                    _ = gexiv2_metadata_try_clear_tag(handle, tag, &error)
                    Self.discard(error)
                    error = nil
                    return values.isEmpty || gexiv2_metadata_try_set_tag_multiple(handle, tag, items, &error) != 0
                }
            }
        }
        try result.get()
    }

    /// Removes `tag`.
    func remove(_ tag: String) {
        Self.lock.withLock { _ in
            var error: UnsafeMutablePointer<GError>?
            _ = gexiv2_metadata_try_clear_tag(handle, tag, &error)
            Self.discard(error)
        }
    }

    /// The document's XMP, serialised as exiv2 writes a sidecar.
    func xmpPacket() throws(MetadataError) -> String {
        let result = Self.lock.withLock { _ -> Result<String, MetadataError> in
            var error: UnsafeMutablePointer<GError>?
            guard let packet = cgexiv2_xmp_packet(handle, &error) else {
                return .failure(MetadataError(Self.message(of: error) ?? "exiv2 could not serialise the XMP"))
            }
            defer { cgexiv2_free_string(packet) }
            return .success(String(cString: packet))
        }
        return try result.get()
    }

    // MARK: - The library's state

    private static let lock = Mutex(())
    /// Exiv2's messages of the call in progress; read and written only with `lock` held.
    nonisolated(unsafe) private static var problems: [String] = []

    private static let initializeOnce: Void = {
        _ = gexiv2_initialize()
        gexiv2_log_set_level(GEXIV2_LOG_LEVEL_ERROR)
        gexiv2_log_set_handler { _, message in
            MetadataDocument.problems.append(message.map { String(cString: $0) } ?? "exiv2 error")
        }
    }()

    /// Runs `body` with the lock held and returns exiv2's error messages and `body`'s own problem, if any.
    private static func collectingProblems(_ body: () -> String?) -> [String] {
        lock.withLock { _ in
            problems = []
            let problem = body()
            defer { problems = [] }
            return problems.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } + (problem.map { [$0] } ?? [])
        }
    }

    /// Runs a gexiv2 call with the lock held; its failure or an exiv2 error message becomes a `MetadataError`.
    private static func check(_ call: (inout UnsafeMutablePointer<GError>?) -> Bool) throws(MetadataError) {
        let problems = collectingProblems { () -> String? in
            var error: UnsafeMutablePointer<GError>?
            return call(&error) ? nil : message(of: error) ?? "exiv2 refused the change"
        }
        if let problem = problems.first { throw MetadataError(problem) }
    }

    private static func message(of error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { cgexiv2_free_error(error) }
        return error.pointee.message.map { String(cString: $0) }
    }

    private static func discard(_ error: UnsafeMutablePointer<GError>?) {
        if let error { cgexiv2_free_error(error) }
    }
}
