import DequeModule
import Synchronization

/// The files the daemon has named to each user in its replies (renditions, originals, resources, exports), which that
/// user may then read through `Images.ReadFile` when it cannot open them itself: the library's files are the daemon
/// user's alone (CONTRACT §11). A user is never served a file no reply named to it, and a user whose grant no longer
/// lets it read gets nothing, whatever it was named before.
///
/// Each user's most recently named files are kept, at most `limitPerUser`; a path named again counts as new. The
/// record lives in memory: after a restart the caller asks again for what it wants to read.
package final class ServedFiles: Sendable {
    static let limitPerUser = 20_000

    /// One user's named paths, oldest first, with the position each was last named at.
    private struct Named {
        var order: Deque<(path: String, serial: Int)> = []
        var serials: [String: Int] = [:]
        var nextSerial = 0

        mutating func add(_ path: String) {
            serials[path] = nextSerial
            order.append((path, nextSerial))
            nextSerial += 1
            while serials.count > ServedFiles.limitPerUser, let oldest = order.popFirst() {
                if serials[oldest.path] == oldest.serial { serials[oldest.path] = nil }
            }
            // Entries named again leave stale ones behind: drop them when they outnumber the live ones.
            if order.count > 2 * max(serials.count, 1024) {
                order = Deque(order.filter { serials[$0.path] == $0.serial })
            }
        }
    }

    private let named = Mutex<[UInt32: Named]>([:])

    package init() {}

    /// Records that a reply named `paths` to the caller.
    package func name<Paths: Sequence<String>>(_ paths: Paths, to caller: Caller?) {
        guard let uid = caller?.uid else { return }
        named.withLock { named in
            for path in paths { named[uid, default: Named()].add(path) }
        }
    }

    /// Records that a reply named `path` to the caller.
    package func name(_ path: String, to caller: Caller?) {
        name(CollectionOfOne(path), to: caller)
    }

    /// Whether a reply named `path` to the caller.
    package func wasNamed(_ path: String, to caller: Caller?) -> Bool {
        guard let uid = caller?.uid else { return false }
        return named.withLock { $0[uid]?.serials[path] != nil }
    }
}
