import FolderWatch
import Foundation
import Glibc
import Testing
import TestSupport

/// The real inotify watcher on real temporary folders.
@Suite(.timeLimit(.minutes(5))) struct FolderWatcherTests {
    /// Collects a watcher's events until `isDone` is satisfied by everything seen so far.
    private func events(of watcher: FolderWatcher, until isDone: ([FolderEvent]) -> Bool,
                        after actions: () throws -> Void) async throws -> [FolderEvent] {
        try actions()
        var seen: [FolderEvent] = []
        for await event in watcher.events {
            seen.append(event)
            if isDone(seen) { break }
        }
        watcher.stop()
        return seen
    }

    @Test func aWrittenFileIsReportedOnceItIsClosed() async throws {
        let folder = try TemporaryDirectory()
        let watcher = try FolderWatcher(root: folder.path, recursive: true)
        let seen = try await events(of: watcher, until: { $0.contains(.fileCompleted(path: folder.file("a.jpg"))) }) {
            let descriptor = open(folder.file("a.jpg"), O_CREAT | O_WRONLY, 0o644)
            for byte: UInt8 in [1, 2] {
                _ = [UInt8](repeating: byte, count: 10).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            }
            close(descriptor)
        }
        #expect(seen == [.fileCompleted(path: folder.file("a.jpg"))])
    }

    @Test func renamesInsideTheTreeArePairedAndMovesOutAreRemovals() async throws {
        let folder = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("sub"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file("a.jpg")))
        try Data("y".utf8).write(to: URL(fileURLWithPath: folder.file("b.jpg")))
        let watcher = try FolderWatcher(root: folder.path, recursive: true)
        let seen = try await events(of: watcher, until: { $0.count == 2 }) {
            try FileManager.default.moveItem(atPath: folder.file("a.jpg"), toPath: folder.file("sub/renamed.jpg"))
            try FileManager.default.moveItem(atPath: folder.file("b.jpg"), toPath: outside.file("b.jpg"))
        }
        #expect(seen == [.fileMoved(from: folder.file("a.jpg"), to: folder.file("sub/renamed.jpg")),
                         .fileRemoved(path: folder.file("b.jpg"))])
    }

    @Test func newSubfoldersAreWatchedAsTheyAppear() async throws {
        let folder = try TemporaryDirectory()
        let watcher = try FolderWatcher(root: folder.path, recursive: true)
        defer { watcher.stop() }
        var events = watcher.events.makeAsyncIterator()
        let nested = folder.file("one/two")
        // Each folder appears once the watcher has reported its parent, as a person or a tool would make them.
        try FileManager.default.createDirectory(atPath: folder.file("one"), withIntermediateDirectories: false)
        let first = await events.next()
        #expect(first == .directoryAppeared(path: folder.file("one")))
        try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: false)
        let second = await events.next()
        #expect(second == .directoryAppeared(path: nested))
        try Data("z".utf8).write(to: URL(fileURLWithPath: nested + "/late.jpg"))
        let third = await events.next()
        #expect(third == .fileCompleted(path: nested + "/late.jpg"))
    }

    @Test func aMovedFolderKeepsItsWatchesUnderTheNewName() async throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("before"), withIntermediateDirectories: true)
        let watcher = try FolderWatcher(root: folder.path, recursive: true)
        let seen = try await events(of: watcher, until: { $0.contains(.fileCompleted(path: folder.file("after/new.jpg"))) }) {
            try FileManager.default.moveItem(atPath: folder.file("before"), toPath: folder.file("after"))
            _ = FileManager.default.createFile(atPath: folder.file("after/new.jpg"), contents: Data("n".utf8))
        }
        #expect(seen.first == .directoryMoved(from: folder.file("before"), to: folder.file("after")))
    }

    @Test func theRootGoingAwayEndsTheWatch() async throws {
        let parent = try TemporaryDirectory()
        let root = parent.file("root")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let watcher = try FolderWatcher(root: root, recursive: true)
        let seen = try await events(of: watcher, until: { $0.contains(.rootVanished) }) {
            try FileManager.default.moveItem(atPath: root, toPath: parent.file("elsewhere"))
        }
        #expect(seen.last == .rootVanished)
    }

    /// (Reaching the kernel's watch limit is tested with the daemon, in a user namespace of its own.)
    @Test func aMissingRootIsAnError() throws {
        let folder = try TemporaryDirectory()
        #expect(throws: FolderWatchError.rootMissing(path: folder.file("missing"))) {
            try FolderWatcher(root: folder.file("missing"), recursive: true)
        }
    }

    @Test func invalidUTF8NamesAreReportedNotDropped() async throws {
        let folder = try TemporaryDirectory()
        let watcher = try FolderWatcher(root: folder.path, recursive: true)
        let seen = try await events(of: watcher, until: { !$0.isEmpty }) {
            let name: [UInt8] = Array(folder.path.utf8) + Array("/bad-".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8) + [0]
            let descriptor = name.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
            }
            #expect(descriptor >= 0)
            close(descriptor)
        }
        guard case .unreadableName(let directory, let name)? = seen.first else {
            Issue.record("expected an unreadable name, got \(seen)")
            return
        }
        #expect(directory == folder.path)
        #expect(name.hasPrefix("bad-") && name.hasSuffix(".jpg"))
    }
}

/// Stat-only scans of real folders.
@Suite struct DirectoryScanTests {
    @Test func aScanFindsRegularFilesAndNeverFollowsLinks() throws {
        let folder = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("sub/deeper"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder.file("top.jpg"), contents: Data("1".utf8))
        _ = FileManager.default.createFile(atPath: folder.file("sub/deeper/low.jpg"), contents: Data("22".utf8))
        _ = FileManager.default.createFile(atPath: outside.file("secret.jpg"), contents: Data("3".utf8))
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.jpg"), withDestinationPath: outside.file("secret.jpg"))
        try FileManager.default.createSymbolicLink(atPath: folder.file("linkdir"), withDestinationPath: outside.path)
        #expect(mkfifo(folder.file("pipe.jpg"), 0o644) == 0)

        var found: [String: Int64] = [:]
        try DirectoryScan.walk(folder.path, recursive: true) { item in
            if case .file(let path, let identity) = item { found[path] = identity.size }
        }
        #expect(found == [folder.file("top.jpg"): 1, folder.file("sub/deeper/low.jpg"): 2])

        var topOnly: [String] = []
        try DirectoryScan.walk(folder.path, recursive: false) { item in
            if case .file(let path, _) = item { topOnly.append(path) }
        }
        #expect(topOnly == [folder.file("top.jpg")])
    }
}
