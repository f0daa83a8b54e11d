import Foundation
import Glibc
import Synchronization

/// Watches a folder tree with inotify and reports what happens in it as `FolderEvent`s.
///
/// Every folder of the tree gets one watch (never one per file); folders that appear later are watched as they
/// appear. Symbolic links are never followed. A dedicated thread reads the kernel's events.
public final class FolderWatcher: Sendable {
    /// The watched folder.
    public let root: String
    /// The events, in the order the kernel reported them; the stream ends when the watch ends.
    public let events: AsyncStream<FolderEvent>
    private let stopRequested = StopFlag()

    /// Starts watching `root`; every folder is watched when this returns, so no later change goes unreported.
    ///
    /// Folders in `excluded` are not watched.
    public init(root: String, recursive: Bool, excluding excluded: Set<String> = []) throws(FolderWatchError) {
        self.root = root
        let (events, continuation) = AsyncStream.makeStream(of: FolderEvent.self)
        self.events = events
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw .systemError(operation: "inotify_init1", path: root, errno: errno) }
        let reader = InotifyReader(descriptor: descriptor, root: root, recursive: recursive, excluded: excluded,
                                   continuation: continuation)
        do {
            try reader.watchTree(root, isRoot: true)
        } catch {
            close(descriptor)
            continuation.finish()
            throw error
        }
        let thread = Thread { [stopRequested] in
            reader.run(until: { stopRequested.isSet })
        }
        thread.name = "inotify \(root)"
        thread.start()
    }

    /// Ends the watch; the event stream finishes shortly after.
    public func stop() {
        stopRequested.set()
    }

    deinit { stop() }
}

/// A flag the reading thread checks between reads.
private final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}

/// The inotify descriptor and the map of watches to folders, used by the reading thread only.
private final class InotifyReader: @unchecked Sendable {
    // @unchecked: after `watchTree` in init, only the reading thread touches this object.
    private static let folderMask = UInt32(IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
        | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK) | dontFollow
    /// `IN_DONTFOLLOW`, which Glibc's Swift module does not import.
    private static let dontFollow: UInt32 = 0x0200_0000
    /// How long a `MOVED_FROM` waits for its `MOVED_TO` before it counts as a move out of the tree.
    private static let movePairingWindow: UInt64 = 50_000_000

    private let descriptor: Int32
    private let root: String
    private let recursive: Bool
    private let excluded: Set<String>
    private let continuation: AsyncStream<FolderEvent>.Continuation
    private var folders: [Int32: String] = [:]
    private var rootWatch: Int32 = -1
    /// What was at the root's path when it was watched: a file system mounted over it (or a dead one under it)
    /// changes that, and no inotify event says so.
    private var rootIdentity: (device: UInt64, inode: UInt64)?
    private var lastRootCheck = DispatchTime.now().uptimeNanoseconds
    /// How often the root's identity is checked.
    private static let rootCheckInterval: UInt64 = 2_000_000_000
    private var hasReportedLimit = false
    /// `MOVED_FROM` events waiting for their `MOVED_TO`, by cookie.
    private var pendingMoves: [UInt32: (path: String, isDirectory: Bool, time: UInt64)] = [:]

    init(descriptor: Int32, root: String, recursive: Bool, excluded: Set<String>,
         continuation: AsyncStream<FolderEvent>.Continuation) {
        self.descriptor = descriptor
        self.root = root
        self.recursive = recursive
        self.excluded = excluded
        self.continuation = continuation
    }

    /// Adds a watch on `path` and, when recursive, on every folder below it.
    func watchTree(_ path: String, isRoot: Bool = false) throws(FolderWatchError) {
        var pending = [path]
        while let folder = pending.popLast() {
            let watch = inotify_add_watch(descriptor, folder, Self.folderMask)
            guard watch >= 0 else {
                switch errno {
                case ENOSPC: throw .watchLimitReached(path: root, watches: folders.count)
                case ENOENT, ENOTDIR:
                    if isRoot && folder == path { throw .rootMissing(path: folder) }
                    continue  // vanished meanwhile
                default: throw .systemError(operation: "inotify_add_watch", path: folder, errno: errno)
                }
            }
            folders[watch] = folder
            if isRoot && folder == path {
                rootWatch = watch
                rootIdentity = Self.identity(of: folder)
            }
            guard recursive else { continue }
            try? DirectoryScan.subfolders(of: folder, excluding: excluded) { pending.append($0) }
        }
    }

    func run(until isStopped: () -> Bool) {
        defer {
            close(descriptor)
            continuation.finish()
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 8)
        defer { buffer.deallocate() }
        while !isStopped() {
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, pendingMoves.isEmpty ? 200 : 10)
            if ready < 0 && errno != EINTR { return }
            if ready > 0 {
                let count = read(descriptor, buffer.baseAddress, buffer.count)
                if count < 0 && errno != EAGAIN && errno != EINTR { return }
                if count > 0, !handleEvents(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { return }
            }
            // A rename queues its MOVED_FROM and MOVED_TO one after the other, and a busy machine can
            // preempt the renamer in between: even a quiet queue gets the whole window.
            flushPendingMoves(olderThan: Self.movePairingWindow)
            guard rootIsStillThere() else {
                continuation.yield(.rootVanished)
                return
            }
        }
    }

    /// Whether the root's path still leads to the folder watched (checked every couple of seconds).
    private func rootIsStillThere() -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastRootCheck >= Self.rootCheckInterval else { return true }
        lastRootCheck = now
        guard let current = Self.identity(of: root), let watched = rootIdentity else { return false }
        return current == watched
    }

    private static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// Handles one read's events; false when the root went away and the watch is over.
    private func handleEvents(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        let headerSize = MemoryLayout<inotify_event>.size
        while offset + headerSize <= bytes.count {
            let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameBytes = Array(bytes[(offset + headerSize)..<min(bytes.count, offset + headerSize + length)].prefix { $0 != 0 })
            offset += headerSize + length
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                continuation.yield(.overflow)
                continue
            }
            if watch == rootWatch, mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT | IN_IGNORED) != 0 {
                continuation.yield(.rootVanished)
                return false
            }
            if mask & UInt32(IN_IGNORED) != 0 {
                folders[watch] = nil
                continue
            }
            guard let folder = folders[watch], !nameBytes.isEmpty else { continue }
            guard let name = String(validating: nameBytes, as: UTF8.self) else {
                if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 {
                    continuation.yield(.unreadableName(directory: folder, name: String(decoding: nameBytes, as: UTF8.self)))
                }
                continue
            }
            handle(mask: mask, cookie: cookie, path: folder + "/" + name)
        }
        return true
    }

    private func handle(mask: UInt32, cookie: UInt32, path: String) {
        let isDirectory = mask & UInt32(IN_ISDIR) != 0
        if isDirectory && excluded.contains(path) { return }
        if mask & UInt32(IN_MOVED_FROM) != 0 {
            pendingMoves[cookie] = (path, isDirectory, DispatchTime.now().uptimeNanoseconds)
        } else if mask & UInt32(IN_MOVED_TO) != 0 {
            if let source = pendingMoves.removeValue(forKey: cookie) {
                if isDirectory {
                    renameFolders(from: source.path, to: path)
                    continuation.yield(.directoryMoved(from: source.path, to: path))
                } else {
                    continuation.yield(.fileMoved(from: source.path, to: path))
                }
            } else {
                if isDirectory {
                    folderAppeared(path)
                } else {
                    continuation.yield(.fileCompleted(path: path))
                }
            }
        } else if mask & UInt32(IN_CREATE) != 0 {
            if isDirectory { folderAppeared(path) }
        } else if mask & UInt32(IN_CLOSE_WRITE) != 0 {
            continuation.yield(.fileCompleted(path: path))
        } else if mask & UInt32(IN_DELETE) != 0 {
            continuation.yield(isDirectory ? .directoryRemoved(path: path) : .fileRemoved(path: path))
        }
    }

    private func folderAppeared(_ path: String) {
        if recursive {
            do {
                try watchTree(path)
            } catch {
                if !hasReportedLimit {
                    hasReportedLimit = true
                    continuation.yield(.watchLimitReached)
                }
            }
        }
        continuation.yield(.directoryAppeared(path: path))
    }

    /// Moves that found no `MOVED_TO` in time left the tree: report them as removals.
    private func flushPendingMoves(olderThan age: UInt64) {
        guard !pendingMoves.isEmpty else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        for (cookie, move) in pendingMoves where now - move.time >= age {
            pendingMoves[cookie] = nil
            if move.isDirectory {
                let prefix = move.path + "/"
                for (watch, folder) in folders where folder == move.path || folder.hasPrefix(prefix) {
                    inotify_rm_watch(descriptor, watch)
                    folders[watch] = nil
                }
                continuation.yield(.directoryRemoved(path: move.path))
            } else {
                continuation.yield(.fileRemoved(path: move.path))
            }
        }
    }

    private func renameFolders(from old: String, to new: String) {
        let prefix = old + "/"
        for (watch, folder) in folders {
            if folder == old {
                folders[watch] = new
            } else if folder.hasPrefix(prefix) {
                folders[watch] = new + "/" + folder.dropFirst(prefix.count)
            }
        }
    }
}
