import FolderWatch
import Foundation
import Glibc
import LibraryStore
import Logging
import NIOPosix
import PhotoModel
import PhotolibConfig
import ServiceLifecycle
import Synchronization
import XMPAnnotations

/// Keeps assets' XMP sidecars and the library in step, one job at a time: writes the library's changes of stars,
/// keywords, titles and captions into sidecars (unless `metadata_write_back` is off), reads sidecars that other
/// programs create, change, rename or delete, and carries a sidecar dropped with its photo into the library.
///
/// The write-backs follow the change feed: a commit that changes an asset's annotations lists the asset's sidecar
/// as due in the same transaction, and each commit the feed announces sends the writes due that are not queued yet.
///
/// One job at a time means a sidecar the library just wrote is on record before its folder's event is looked
/// at: that event finds the file as recorded and changes nothing (no loop). A change that came from a sidecar is
/// never written back.
package final class SidecarKeeper: Service, Sendable {
    enum Job: Sendable {
        /// The library changed these assets' annotations: write them to their sidecars.
        case writeBack(assetIds: Set<String>)
        /// Something happened to the sidecar at `path` in a watched folder of `mode`.
        case sidecarChanged(path: String, mode: SourceMode)
        /// A file of this asset was imported or moved: read or adopt the sidecar beside it.
        case fileArrived(assetId: String, sourcePath: String, mode: SourceMode)
    }

    private let database: LibraryDatabase
    private let threadPool: NIOThreadPool
    private let writeBack: @Sendable () -> MetadataWriteBack
    private let logger: Logger
    private let (jobs, jobSink) = AsyncStream.makeStream(of: Job.self)
    /// The assets whose write-back is queued and not started: a commit that finds them due again queues nothing.
    private let queuedWriteBacks = Mutex<Set<String>>([])

    package init(
        database: LibraryDatabase, threadPool: NIOThreadPool, writeBack: @escaping @Sendable () -> MetadataWriteBack,
        logger: Logger
    ) {
        self.database = database
        self.threadPool = threadPool
        self.writeBack = writeBack
        self.logger = logger
    }

    /// Queues a job; it runs after those queued before it.
    func submit(_ job: Job) {
        jobSink.yield(job)
    }

    package func run() async throws {
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.queueWriteBacksAsCommitted() }
                for await job in jobs {
                    do {
                        try await perform(job)
                    } catch is CancellationError {
                        break
                    } catch {
                        logger.warning("sidecar work failed", metadata: ["job": "\(job)", "error": "\(error)"])
                    }
                }
                group.cancelAll()
            }
        } onGracefulShutdown: { [jobSink] in
            jobSink.finish()
        }
    }

    /// Queues the sidecar writes due: first those a crash left (committed, not yet written), then after each commit
    /// the feed announces, until cancelled.
    private func queueWriteBacksAsCommitted() async {
        let commits = database.feed.subscribe()
        await queueWriteBacksDue()
        for await _ in commits { await queueWriteBacksDue() }
    }

    private func queueWriteBacksDue() async {
        let due: [String]
        do {
            due = try await database.sidecars.sidecarWritesDue()
        } catch {
            return logger.warning("cannot read the sidecar writes due", metadata: ["error": "\(error)"])
        }
        let new = queuedWriteBacks.withLock { queued in Set(due.filter { queued.insert($0).inserted }) }
        if !new.isEmpty { submit(.writeBack(assetIds: new)) }
    }

    private func perform(_ job: Job) async throws {
        switch job {
        case .writeBack(let assetIds):
            // From here a commit that makes them due again queues them again.
            queuedWriteBacks.withLock { $0.subtract(assetIds) }
            guard writeBack() == .sidecar else {
                return try await database.sidecars.dropSidecarWritesDue(Array(assetIds))
            }
            for id in assetIds { try await writeSidecar(ofAsset: id) }
        case .sidecarChanged(let path, let mode):
            let (exactMediaPath, stem) = SidecarNames.media(ofSidecar: path)
            let ids = try await database.sidecars.assets(forSidecarAt: path, exactMediaPath: exactMediaPath, stem: stem)
            if mode == .reference {
                for id in ids { try await refresh(assetId: id) }
            } else if let newest = ids.first, FileIdentity(regularFileAt: path) != nil {
                // The photo dropped under this name most recently is the one the sidecar came with.
                try await adopt(droppedSidecar: path, forAsset: newest, mode: mode)
            }
        case .fileArrived(let id, let sourcePath, let mode):
            if mode == .reference {
                try await refresh(assetId: id)
            } else if let dropped = SidecarNames.candidates(forMediaAt: sourcePath).first(where: {
                FileIdentity(regularFileAt: $0) != nil
            }) {
                try await adopt(droppedSidecar: dropped, forAsset: id, mode: mode)
            }
        }
    }

    // MARK: - Write-back

    /// Writes the asset's annotations into its sidecar: the one on record or beside one of its files, else a new
    /// `NAME.EXT.xmp` beside its primary file. A failure is recorded for `photolib info` and logged.
    private func writeSidecar(ofAsset id: String) async throws {
        guard let subject = try await database.sidecars.sidecarSubject(ofAsset: id),
            let primary = subject.filePaths.first
        else {
            return try await database.sidecars.dropSidecarWritesDue([id])
        }
        let path =
            subject.sidecar.map(\.path).flatMap { FileIdentity(regularFileAt: $0) != nil ? $0 : nil }
            ?? existingSidecar(of: subject) ?? SidecarNames.newSidecar(forMediaAt: primary)
        let mode: mode_t = subject.isOwnedByLibrary ? 0o600 : Self.mode(ofFileAt: primary)
        do {
            // The library's position goes with the annotations (removed when it has none): set-location reaches the sidecar.
            let location: FieldUpdate<Location> = subject.location.map { .set($0) } ?? .cleared
            try await threadPool.runIfActive {
                try SidecarFile.write(subject.annotations, location: location, to: path, mode: mode)
            }
            try await database.sidecars.recordSidecarWrite(
                path: path, identity: FileIdentity(regularFileAt: path), problem: nil, ofAsset: id)
        } catch let error as SidecarError {
            logger.warning(
                "The sidecar could not be written; the change stays in the library",
                metadata: ["path": "\(path)", "asset": "\(id)", "reason": "\(error)"])
            try await database.sidecars.recordSidecarWrite(
                path: path, identity: subject.sidecarIdentity,
                problem: error.description, ofAsset: id)
        }
    }

    /// The permissions a new sidecar beside a file in a user's folder gets: the file's own, without execution.
    private static func mode(ofFileAt path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o666 : 0o644
    }

    /// The first sidecar on disk beside any of the asset's files, those that win first.
    private func existingSidecar(of subject: SidecarSubject) -> String? {
        subject.filePaths.lazy.flatMap(SidecarNames.candidates(forMediaAt:)).first {
            FileIdentity(regularFileAt: $0) != nil
        }
    }

    // MARK: - Reading

    /// Gives the asset what its files and sidecar say now, unless its sidecar is the one on record (the library
    /// wrote it, or read it already) or the library's own change is still to be written there (it wins).
    private func refresh(assetId id: String) async throws {
        guard let subject = try await database.sidecars.sidecarSubject(ofAsset: id), !subject.isWritePending else {
            return
        }
        let sidecar = existingSidecar(of: subject)
        let identity = sidecar.flatMap { FileIdentity(regularFileAt: $0) }
        guard sidecar != subject.sidecar?.path || identity != subject.sidecarIdentity else { return }
        let (annotations, location) = try await threadPool.runIfActive { [logger] in
            Self.annotations(ofFileAt: subject.filePaths.first, sidecar: sidecar, logger: logger)
        }
        try await database.sidecars.applyAnnotations(
            annotations, location: location, fromSidecar: sidecar, identity: identity, toAsset: id)
    }

    /// A sidecar dropped into a move or copy folder beside a photo the library holds: the asset takes what it
    /// says, the library keeps a copy beside its own file (everything in it kept), and a move folder lets it go.
    private func adopt(droppedSidecar dropped: String, forAsset id: String, mode: SourceMode) async throws {
        guard let subject = try await database.sidecars.sidecarSubject(ofAsset: id),
            let primary = subject.filePaths.first,
            let identity = FileIdentity(regularFileAt: dropped)
        else { return }
        let target = subject.sidecar?.path ?? SidecarNames.newSidecar(forMediaAt: primary)
        let adopted = try await threadPool.runIfActive { [logger] () throws -> (Annotations, Location?)? in
            let bytes = try SidecarFile.contents(of: dropped)
            let reading: AnnotationReading
            do {
                reading = try SidecarFile.annotations(inSidecarBytes: bytes)
            } catch {
                logger.warning(
                    "A sidecar is not readable and is ignored", metadata: ["path": "\(dropped)", "reason": "\(error)"])
                return nil
            }
            let annotations = reading.overriding(Self.embedded(ofFileAt: primary, logger: logger)).annotations
            try SidecarFile.write(annotations, to: target, mode: 0o600, startingFrom: bytes)
            return (annotations, reading.location)
        }
        guard let (annotations, location) = adopted else { return }
        try await database.sidecars.applyAnnotations(
            annotations, location: location, fromSidecar: target, identity: FileIdentity(regularFileAt: target),
            toAsset: id)
        // The library's copy is synced: the dropped one may go, unless another file took its name meanwhile.
        if mode == .move, FileIdentity(regularFileAt: dropped) == identity, unlink(dropped) != 0, errno != ENOENT {
            logger.warning("could not remove a moved sidecar", metadata: ["path": "\(dropped)", "errno": "\(errno)"])
        }
    }

    /// What a photo file and its sidecar say together, the sidecar winning, and the position the sidecar gives (nil:
    /// the asset keeps its own); a part that cannot be read is logged with its path and ignored.
    static func annotations(ofFileAt path: String?, sidecar: String?, logger: Logger) -> (Annotations, Location?) {
        var reading = path.map { embedded(ofFileAt: $0, logger: logger) } ?? AnnotationReading()
        if let sidecar {
            do {
                reading = try SidecarFile.read(sidecar).overriding(reading)
            } catch {
                logger.warning(
                    "A sidecar is not readable and is ignored", metadata: ["path": "\(sidecar)", "reason": "\(error)"])
            }
        }
        for problem in reading.problems {
            logger.warning(
                "A metadata property is ignored",
                metadata: ["path": "\(sidecar ?? path ?? "")", "reason": "\(problem)"])
        }
        return (reading.annotations, reading.location)
    }

    /// What a photo or RAW file carries itself; nothing for other files, or when it cannot be read.
    static func embedded(ofFileAt path: String, logger: Logger) -> AnnotationReading {
        guard let kind = MediaFileKind(fileName: path), kind == .image || kind == .raw else {
            return AnnotationReading()
        }
        do {
            return try EmbeddedAnnotations.read(path: path)
        } catch {
            logger.debug("no embedded annotations", metadata: ["path": "\(path)", "reason": "\(error)"])
            return AnnotationReading()
        }
    }
}
