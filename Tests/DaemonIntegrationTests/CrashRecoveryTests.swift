import Foundation
import Glibc
import Testing
import TestSupport
import Varlink

/// `kill -9` of the daemon while files are dropped: after a restart every file is in the library exactly once.
@Suite(.serialized)
struct CrashRecoveryTests {
    @Test func killingTheDaemonDuringA1000FileDropLosesAndDuplicatesNothing() async throws {
        let drop = try TemporaryDirectory(), staging = try TemporaryDirectory()
        let daemon = try DaemonProcess(extraConfig: "[[source]]\npath = \"\(drop.path)\"\nmode = \"move\"\n")
        try await daemon.start()
        let fileCount = 1_000
        // Half the files are written in place, half written aside and renamed in, as upload tools do.
        let writer = Task.detached {
            for index in 0..<fileCount {
                let bytes = MediaFixtures.jpegVariant(index)
                if index.isMultiple(of: 2) {
                    try bytes.write(to: URL(fileURLWithPath: drop.file("photo-\(index).jpg")))
                } else {
                    try bytes.write(to: URL(fileURLWithPath: staging.file("photo-\(index).jpg")))
                    try FileManager.default.moveItem(atPath: staging.file("photo-\(index).jpg"), toPath: drop.file("photo-\(index).jpg"))
                }
                if index.isMultiple(of: 25) { try await Task.sleep(for: .milliseconds(20)) }
            }
        }
        for _ in 0..<6 {
            try await Task.sleep(for: .milliseconds(Int.random(in: 150...1_200)))
            try await daemon.kill9()
            try await daemon.start()
        }
        try await writer.value

        let library = try await WatchedLibrary(daemon: daemon)
        try await library.waitUntil(timeout: 300, "the drop folder is emptied") {
            guard filesUnder(drop.path).isEmpty else { return false }
            return try await library.assets().count >= fileCount
        }
        let assets = try await library.assets()
        #expect(assets.count == fileCount)
        var seen: [Int: Int] = [:]
        for asset in assets {
            let path = try #require(asset.resources?.first?.path)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let marker = String(decoding: bytes.suffix(30), as: UTF8.self)
            let index = try #require(marker.components(separatedBy: "photolibd-variant-").last.flatMap { Int($0) })
            #expect(bytes == MediaFixtures.jpegVariant(index))
            seen[index, default: 0] += 1
        }
        #expect(seen.count == fileCount && seen.values.allSatisfy { $0 == 1 })
        #expect(filesUnder(daemon.libraryPath + "/originals").count == fileCount)
        #expect(filesUnder(daemon.libraryPath + "/incoming").isEmpty)
        #expect(try await library.status().failed == 0)
        await library.client.close()
        try await daemon.stop()
    }
}
