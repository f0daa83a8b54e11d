import Foundation
import Testing
import TestSupport
import Varlink

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
        #expect(listed.map { $0["path"]?.stringValue } == [configured.path, added.path])
        #expect(listed.map { $0["mode"]?.stringValue } == ["copy", "reference"])
        #expect(listed[1]["assetCount"]?.intValue == 1)
        #expect(listed[0]["isConfigured"]?.boolValue == true && listed[1]["isConfigured"]?.boolValue == false)
        let table = try runTool(photolib, ["sources"] + socket).output
        #expect(table.contains(added.path) && table.contains("reference") && table.contains("watching"))

        library = try await library.restarted()
        try await library.waitUntil("both sources are back") { try await library.sources().count == 2 }

        await #expect { try await library.connection.call("io.photolibd.Import.RemoveSource", parameters: ["path": .string(configured.path)]) } throws: {
            ($0 as? VarlinkError)?.name == "io.photolibd.Import.InvalidSource"
        }
        await #expect { try await library.connection.call("io.photolibd.Import.AddSource", parameters: ["path": "relative/dir", "mode": "copy"]) } throws: {
            ($0 as? VarlinkError)?.name == "io.photolibd.Import.InvalidSource"
        }
        await #expect { try await library.connection.call("io.photolibd.Import.AddSource", parameters: ["path": .string(added.file("missing")), "mode": "copy"]) } throws: {
            ($0 as? VarlinkError)?.name == "io.photolibd.Import.InvalidSource"
        }
        await #expect { try await library.connection.call("io.photolibd.Import.RemoveSource", parameters: ["path": "/nowhere"]) } throws: {
            ($0 as? VarlinkError)?.name == "io.photolibd.Import.NotFound"
        }
        try runTool(photolib, ["sources", "remove", added.path] + socket)
        #expect(try await library.sources().map { $0["path"]?.stringValue } == [configured.path])
        #expect(try await library.assets().count == 1)
    }
}
