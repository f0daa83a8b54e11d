import FolderWatch
import LibraryStore
import PhotoModel
import PhotolibConfig
import XMPAnnotations

/// A watched folder's sidecars: never assets, followed for the assets they belong to, each change handed to the
/// `SidecarKeeper`.
struct SourceSidecarFollower: Sendable {
    let source: SourceConfiguration
    let database: LibraryDatabase
    let sidecars: SidecarKeeper

    /// Hands a sidecar's creation, change, rename or deletion to the sidecar keeper; returns whether the event was
    /// about a sidecar (and so about no asset file).
    func follow(_ event: FolderEvent) -> Bool {
        switch event {
        case .fileCompleted(let path), .fileRemoved(let path):
            return submitIfSidecar(path)
        case .fileMoved(let from, let to):
            let fromSidecar = submitIfSidecar(from), toSidecar = submitIfSidecar(to)
            return fromSidecar || toSidecar
        default:
            return false
        }
    }

    /// What start-up and rescans found: sidecars that are new, changed or gone since the library last saw them
    /// (a reference folder), or that wait beside photos the library already took (a move or copy folder).
    func reconcile(_ found: [String: FileIdentity]) async throws {
        guard source.mode == .reference else {
            for path in found.keys { sidecars.submit(.sidecarChanged(path: path, mode: source.mode)) }
            return
        }
        var unseen = found
        for recorded in try await database.sidecars.recordedSidecars(inSource: source.path) {
            let identity = unseen.removeValue(forKey: recorded.path)
            if identity == nil || identity != recorded.identity {
                sidecars.submit(.sidecarChanged(path: recorded.path, mode: .reference))
            }
        }
        for path in unseen.keys { sidecars.submit(.sidecarChanged(path: path, mode: .reference)) }
    }

    private func submitIfSidecar(_ path: String) -> Bool {
        let name = MediaFileKind.fileName(ofPath: path)
        guard SidecarNames.isSidecar(name) else { return false }
        // The keeper's own temporary files are hidden: their rename into place is the event that counts.
        if !MediaFileKind.isTemporaryOrHidden(name) { sidecars.submit(.sidecarChanged(path: path, mode: source.mode)) }
        return true
    }
}
