import Foundation
import Testing
import PhotoLibrary
import TestSupport

/// AddSource, RemoveSource and ListSources, over varlink and through `photolib sources`.
@Suite(.serialized)
struct ImportSourcesTests {
    @Test func addedSourcesAreWatchedListedRememberedAndRemovable() async throws {
        let configured = try TemporaryDirectory(), added = try TemporaryDirectory()
        var library = try await WatchedLibrary.start(sources: [(configured.path, "copy")])
        let photolib = DaemonProcess.productsDirectory + "/photolib"
        let socket = ["--socket", library.daemon.socketPath]

        let output = try runTool(photolib, ["sources", "add", added.path, "--mode", "reference"] + socket).output
        #expect(output.contains("watching \(added.path)"))
        try MediaFixtures.jpegVariant(1).write(to: URL(fileURLWithPath: added.file("one.jpg")))
        try await library.waitUntil("the added source imports") { try await library.assets().count == 1 }

        let listed = try await library.sources()
        #expect(listed.map(\.path) == [configured.path, added.path])
        #expect(listed.map(\.mode) == [.copy, .reference])
        #expect(listed[1].assetCount == 1)
        #expect(listed[0].isConfigured && !listed[1].isConfigured)
        let table = try runTool(photolib, ["sources"] + socket).output
        #expect(table.contains(added.path) && table.contains("reference") && table.contains("watching"))

        library = try await library.restarted()
        try await library.waitUntil("both sources are back") { try await library.sources().count == 2 }

        /// The name of the daemon's error for what `body` asks, or nil when it succeeds.
        func refusal(_ body: () async throws -> Void) async -> String? {
            do { try await body() } catch { return (error as? PhotoLibraryError)?.varlinkError?.name }
            return nil
        }
        #expect(await refusal { try await library.client.removeSource(path: configured.path) } == "io.photolibd.Import.InvalidSource")
        #expect(await refusal { try await library.client.addSource(path: "relative/dir", mode: .copy) } == "io.photolibd.Import.InvalidSource")
        #expect(await refusal { try await library.client.addSource(path: added.file("missing"), mode: .copy) }
            == "io.photolibd.Import.InvalidSource")
        #expect(await refusal { try await library.client.removeSource(path: "/nowhere") } == "io.photolibd.Import.NotFound")
        try runTool(photolib, ["sources", "remove", added.path] + socket)
        #expect(try await library.sources().map(\.path) == [configured.path])
        #expect(try await library.assets().count == 1)
    }

    /// The daemon runs in its own user namespace, whose inotify watch limit is set to 3: the machine's own limit
    /// is untouched, and the kernel really answers ENOSPC.
    @Test(.enabled(if: UserNamespace.isAvailable, "needs user namespaces (unshare --user)"))
    func aSourceBeyondTheWatchLimitIsPolledSaysSoAndIsWatchedAgainOnceItFits() async throws {
        let drop = try TemporaryDirectory()
        for name in ["a", "b", "c", "d"] {
            try FileManager.default.createDirectory(atPath: drop.file(name), withIntermediateDirectories: true)
        }
        let daemon = try DaemonProcess(extraConfig: "[[source]]\npath = \"\(drop.path)\"\nmode = \"move\"\n",
                                       launcher: UserNamespace.launcher(inotifyWatchLimit: 3))
        try await daemon.start()
        let library = try await WatchedLibrary(daemon: daemon)

        try await library.waitUntil("the source is polled") { try await library.sources().first?.state == "polling" }
        let polled = try #require(try await library.sources().first)
        #expect(!polled.watching)
        #expect(polled.error?.contains("watch limit") == true)
        #expect(try await library.status().pollingSources == [drop.path])
        try MediaFixtures.jpegVariant(1).write(to: URL(fileURLWithPath: drop.file("d/polled.jpg")))
        try await library.waitUntil("polling imports a dropped file") { try await library.assets().count == 1 }

        for name in ["b", "c", "d"] { try FileManager.default.removeItem(atPath: drop.file(name)) }
        try await library.waitUntil("the source is watched again") { try await library.sources().first?.watching == true }
        #expect(try await library.status().pollingSources.isEmpty)
        try MediaFixtures.jpegVariant(2).write(to: URL(fileURLWithPath: drop.file("a/watched.jpg")))
        try await library.waitUntil("the watched source imports a dropped file") { try await library.assets().count == 2 }
        try await daemon.stop()
    }
}

/// Running the daemon in a user namespace of its own, where it is root and can set the namespace's limits.
enum UserNamespace {
    static let isAvailable = (try? runTool("/usr/bin/unshare", ["--user", "--map-root-user", "true"], checked: false).status) == 0

    /// A launcher that sets the namespace's `max_inotify_watches` (a per-namespace limit) and then starts the daemon.
    static func launcher(inotifyWatchLimit: Int) -> [String] {
        ["/usr/bin/unshare", "--user", "--map-root-user", "/bin/sh", "-c",
         "echo \(inotifyWatchLimit) > /proc/sys/user/max_inotify_watches && exec \"$@\"", "sh"]
    }
}
