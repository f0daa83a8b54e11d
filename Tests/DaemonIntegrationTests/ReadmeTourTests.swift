import Foundation
import Glibc
import TestSupport
import Testing

/// The README's 30-second tour, read from the README and run line by line, in order, as a newcomer would: on a
/// fresh home with a few photos in ~/Pictures, against a daemon started on its built-in defaults.
@Suite(.serialized)
struct ReadmeTourTests {
    static let checkout = CheckoutScriptTests.checkout

    /// The lines of the first `sh` block under "## A 30-second tour", without their comments.
    static func tourLines() throws -> [String] {
        let readme = try String(contentsOfFile: checkout + "/README.md", encoding: .utf8)
        let tour = try #require(readme.range(of: "## A 30-second tour"))
        let block = try #require(readme.range(of: "```sh\n", range: tour.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "\n```", range: block.upperBound..<readme.endIndex))
        return readme[block.upperBound..<end.lowerBound].split(separator: "\n").map { line in
            let code = line.range(of: "  #").map { line[..<$0.lowerBound] } ?? line[...]
            return code.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
    }

    @Test func everyLineOfTheTourRunsAsWrittenOnAFreshHome() async throws {
        let home = try TemporaryDirectory(prefix: "photolibd-tour")
        let runtime = home.file("run")
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(atPath: home.file("Pictures"), withIntermediateDirectories: true)
        for (index, day) in ["2024:05:01", "2024:05:02", "2024:06:15"].enumerated() {
            try ImageFixtures.image(
                at: home.file("Pictures/IMG_000\(index + 1).jpg"), width: 320, height: 240,
                exif: ["-DateTimeOriginal=\(day) 10:00:00", "-OffsetTimeOriginal=+02:00"])
        }
        // `alias photolib=$PWD/.build/debug/photolib` as written: here the build folder is the test's own.
        let working = home.file("checkout")
        try FileManager.default.createDirectory(atPath: working + "/.build", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: working + "/.build/debug", withDestinationPath: DaemonProcess.productsDirectory)

        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("XDG_") && !$0.key.hasPrefix("PHOTOLIBD_")
        }
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = runtime
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: DaemonProcess.productsDirectory + "/photolibd")
        daemon.environment = environment
        let log = home.file("daemon.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        daemon.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try daemon.run()
        defer { kill(daemon.processIdentifier, SIGKILL); daemon.waitUntilExit() }
        let socket = runtime + "/photolibd/socket"
        let started = try await eventually(timeout: .seconds(120)) {
            guard let descriptor = try? connectUnixStream(to: socket) else { return !daemon.isRunning }
            close(descriptor)
            return true
        }
        #expect(
            started && daemon.isRunning,
            "photolibd did not start on its defaults: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")

        // Every line in one shell, in order; an id where the tour says ASSET_ID (the first two for ASSET_ID…): each
        // line's first "id", the asset's, as a located asset's place has an id too.
        var script = """
            shopt -s expand_aliases
            cd \(working)
            tour_ids() { ${BASH_ALIASES[photolib]} assets --json --include-hidden --include-trashed | head -n "$1" | sed 's/"id":"\\([^"]*\\)".*/\\n\\1/; s/.*\\n//'; }

            """
        let lines = try Self.tourLines()
        #expect(
            lines.first?.hasPrefix("alias photolib=") == true && lines.count > 20, "the tour was not found: \(lines)")
        for (number, line) in lines.enumerated() {
            var command = line.replacingOccurrences(of: "ASSET_ID…", with: "$(tour_ids 2)")
                .replacingOccurrences(of: "ASSET_ID", with: "$(tour_ids 1)")
            // `watch` follows the library until interrupted, as a person would with Ctrl-C after a look.
            if command.hasPrefix("photolib watch") {
                command =
                    "timeout --signal=INT --preserve-status 2 ${BASH_ALIASES[photolib]}"
                    + command.dropFirst("photolib".count)
                    + " || [ $? = 130 ]"
            }
            script += "echo '>>> \(number + 1): \(line.replacingOccurrences(of: "'", with: "'\\''"))'\n"
            script += "\(command) || { echo \"<<< line \(number + 1) failed with $?\" >&2; exit 1; }\n"
        }
        let run = try runTool("/bin/bash", ["-c", script], environment: environment, checked: false)
        #expect(run.status == 0, "the tour stopped:\n\(run.output.suffix(3000))\n\(run.errors.suffix(3000))")
        // What the tour promises in its own words.
        #expect(run.output.contains("imported 3, duplicates 0"))
        #expect(FileManager.default.fileExists(atPath: home.file("Export/IMG_0001.jpg")), "\(run.output.suffix(2000))")
        #expect(FileManager.default.fileExists(atPath: working + "/thumb.jpg"))
        // `assets --json` is JSON Lines, as the tour says: one Asset object per line.
        let json = try runTool(
            DaemonProcess.productsDirectory + "/photolib", ["assets", "--json"], environment: environment)
        let objects = json.output.split(separator: "\n").map {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.count == 3 && objects.allSatisfy { $0?["id"] is String }, "\(json.output)")
    }

    /// The README's first screen: two commands for a fresh machine, both there to run.
    @Test func theFirstScreenHasTheTwoCommandsOfAFreshMachine() throws {
        let readme = try String(contentsOfFile: Self.checkout + "/README.md", encoding: .utf8)
        let block = try #require(readme.range(of: "```sh\n"))
        let end = try #require(readme.range(of: "\n```", range: block.upperBound..<readme.endIndex))
        let commands = readme[block.upperBound..<end.lowerBound].split(separator: "\n").map {
            $0.split(separator: " ").first.map(String.init)
        }
        #expect(commands == ["scripts/run-daemon", "scripts/test"])
        for command in ["scripts/run-daemon", "scripts/test"] {
            #expect(FileManager.default.isExecutableFile(atPath: Self.checkout + "/" + command))
        }
    }

    /// What the README says where a newcomer checked it against what the programs do.
    @Test func theReadmeSaysWhatTheProgramsDo() throws {
        let lines = try Self.tourLines()
        let json = try #require(lines.first { $0 == "photolib assets --json" })
        let readme = try String(contentsOfFile: Self.checkout + "/README.md", encoding: .utf8)
        #expect(
            readme.contains("\(json)") && readme.contains("# JSON Lines: one of the contract's Asset objects per line"))
        // A thumbnail is never larger than its image (contract §10): not "exactly" the size asked for.
        #expect(!readme.contains("exactly 256x256") && readme.contains("never enlarged"))
        // Socket activation in one voice with the units and debian/rules.
        #expect(readme.contains("The package enables\nand starts `photolibd.socket`, not `photolibd.service`"))
        #expect(readme.contains("photolib gallery") && readme.contains("--verbose"))
    }
}
