import Foundation
import Glibc
import Imaging
import LibraryStore
import PhotoModel
import PhotolibConfig
import SystemFaults

/// Why a file did not become an asset.
package struct ImportFailure: Error, CustomStringConvertible {
    package enum Kind: String {
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

    package var kind: Kind
    package var reason: String
    package var description: String { reason }

    package static func failed(_ reason: String) -> ImportFailure { ImportFailure(kind: .failed, reason: reason) }

    /// A failure naming the system error in `errno`.
    static func system(_ action: String) -> ImportFailure {
        let code = SystemErrorCode(errno)
        let kind: Kind = code.rawValue == ENOENT ? .vanished : code.isPassingFault ? .passingFault : .failed
        return ImportFailure(kind: kind, reason: "\(action): \(code)")
    }

    /// A failure of `action` that `error` reports, classed by the system error it wraps: a folder Foundation could
    /// not create on a read-only disk waits for the disk as an `open` that failed with `EROFS` does.
    static func system(_ action: String, error: any Error) -> ImportFailure {
        guard let code = SystemErrorCode(in: error) else { return .failed("\(action): \(error.localizedDescription)") }
        return ImportFailure(kind: code.isPassingFault ? .passingFault : .failed, reason: "\(action): \(code)")
    }

    /// What kept a file out when `error` is a fault that may pass (SQLite's or the system's: a disk full, read-only
    /// or failing), nil for any other error.
    static func passingFault(in error: any Error) -> String? {
        if let fault = LibraryDatabase.storageFault(in: error) { return fault }
        guard let code = SystemErrorCode(in: error), code.isPassingFault else { return nil }
        return "\(code)"
    }
}

/// A file read, hashed and (in copy and move modes) copied into the store, ready to commit as an asset.
package struct PreparedFile: Sendable {
    /// The first rendition of a still its import read whole.
    package enum FirstRendition: Sendable {
        /// From the bytes read once for its hash, copy and metadata.
        case fromContents(EncodedBuffer)
        /// From its file: its batch kept too many bytes to keep these too.
        case fromFile

        package var contents: EncodedBuffer? {
            if case .fromContents(let contents) = self { contents } else { nil }
        }
    }

    var sourcePath: String
    var mode: SourceMode
    /// The copy in the library's store, for copy and move modes.
    var staged: LibraryFileStore.StagedFile?
    package var draft: AssetDraft
    var file: SourceFile
    /// How the asset's grid rendition is made right after its commit, if it is (else once the library settles).
    package var firstRendition: FirstRendition?
    /// The id the asset gets if the file makes a new one.
    package var newAssetId = UUID().uuidString.lowercased()
    /// What could not be read of the file's annotations and its sidecar (each ignored), to log.
    var annotationProblems: [(path: String, reason: String)] = []
    /// The sidecar read with the file, and its identity then.
    var sidecar: String?
    var sidecarIdentity: FileIdentity?
    /// The store copies of the asset's other resources (a created Live Photo's movie, a RAW beside its JPEG).
    var companions: [LibraryFileStore.StagedFile] = []

    /// The commit request for this file, committed on its own: a store copy is synced after it (see `StoreSync`).
    func ingestRequest(album: String? = nil) -> IngestRequest {
        var request = IngestRequest(
            draft: draft, file: file, isReference: mode == .reference, album: album,
            defersSync: staged != nil, newAssetId: newAssetId)
        if mode == .reference {
            request.sidecarPath = sidecar
            request.sidecarIdentity = sidecarIdentity
        }
        return request
    }
}
