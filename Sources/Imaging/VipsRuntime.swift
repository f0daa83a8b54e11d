import CVips
import Foundation
import Synchronization

/// The process-wide libvips library state.
public enum VipsRuntime {
    /// Starts libvips once per process; later calls return the first outcome. Thread-safe.
    ///
    /// Disables the operation cache (in libvips 8.14 it is keyed by file name, so a file rewritten
    /// in place would come back stale) and the Orc code libvips generates at run time for each resize (Debian 12's
    /// liborc 0.4.33 crashed the daemon with SIGSEGV after some 20,000 renders on two threads), and blocks the
    /// loaders libvips marks untrusted (ImageMagick, PDF, SVG, JPEG 2000, JPEG XL, FITS...). The concurrency stays
    /// libvips' default until ``setThreadsPerImage(_:)`` changes it.
    public static func start() throws(ImagingError) {
        try outcome.get()
    }

    /// Sets how many threads libvips uses to compute one image (its default: one per core). A server that renders
    /// one image per core on threads of its own sets 1, so that images in parallel do not compete for the cores.
    public static func setThreadsPerImage(_ count: Int) {
        vips_concurrency_set(Int32(max(1, count)))
    }

    /// Swift runs a static initialiser exactly once, even under concurrent first access.
    private static let outcome: Result<Void, ImagingError> = {
        guard cvips_init("photolibd") == 0 else {
            return .failure(.libraryUnavailable(takeErrorMessage()))
        }
        vips_cache_set_max(0)
        vips_vector_set_enabled(0)
        vips_block_untrusted_set(1)
        return .success(())
    }()

    /// Guards libvips' error buffer, which is one per process: without it, concurrent calls would
    /// read each other's failures, and lines some successful loads leave behind.
    private static let errorBuffer = Mutex(())

    /// Runs `body` with libvips' error buffer emptied and to itself, so that what
    /// ``takeErrorMessage()`` returns inside `body` comes from `body`'s own libvips calls.
    static func withErrorBuffer<Value, Failure: Error>(
        _ body: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        try errorBuffer.withLock { _ throws(Failure) -> Value in
            vips_error_clear()
            return try body()
        }
    }

    /// Returns and clears libvips' error buffer after a failed call that ran without ``withErrorBuffer(_:)``.
    ///
    /// Long operations run unlocked so that threads render in parallel; should two fail at once, the message
    /// may hold the other's lines too.
    static func takeFailureMessage() -> String {
        errorBuffer.withLock { _ in takeErrorMessage() }
    }

    /// Returns and clears libvips' error buffer as one line, repeated lines dropped.
    static func takeErrorMessage() -> String {
        guard let copy = vips_error_buffer_copy() else { return "libvips gave no detail" }
        defer { g_free(copy) }
        var seen: Set<String> = []
        let lines = String(cString: copy)
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
        return lines.isEmpty ? "libvips gave no detail" : lines.joined(separator: "; ")
    }
}
