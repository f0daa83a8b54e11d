import Foundation
import Glibc
import TestSupport
import Testing

/// The README's first command, `scripts/run-daemon`, as a newcomer sees it: quiet while it builds, the gallery's
/// address printed last, both programs' log lines in one format, and no warning when it stops. It runs from a copy of
/// the script in a checkout of its own whose `swift` is a stand-in that prints a long build log and records its calls,
/// and whose .build/debug holds the products this test was built with.
@Suite(.serialized)
struct RunDaemonScriptTests {
    static let fakeBuildLines = 1_000

    /// A checkout with scripts/run-daemon and the files it sources, a setup that has nothing to install, and the
    /// stand-in `swift`, which exits with $FAKE_BUILD_STATUS.
    static func checkout() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "photolibd-run-daemon")
        let manager = FileManager.default
        for path in ["scripts/lib", "bin", ".build", "run"] {
            try manager.createDirectory(atPath: folder.file(path), withIntermediateDirectories: true)
        }
        for path in ["scripts/run-daemon", "scripts/lib/environment.bash", "scripts/lib/build-products.bash"] {
            try manager.copyItem(atPath: CheckoutScriptTests.checkout + "/" + path, toPath: folder.file(path))
        }
        try executable(folder.file("scripts/setup"), "#!/bin/sh\nexit 0\n")
        try executable(
            folder.file("bin/swift"),
            """
            #!/bin/sh
            echo "$*" >>"\(folder.file("swift-calls"))"
            i=1
            while [ $i -le \(fakeBuildLines) ]; do echo "[$i/\(fakeBuildLines)] Compiling Module$i Source$i.swift"; i=$((i + 1)); done
            echo "warning: a warning of the stand-in build"
            exit "${FAKE_BUILD_STATUS:-0}"

            """)
        try manager.createSymbolicLink(
            atPath: folder.file(".build/debug"), withDestinationPath: DaemonProcess.productsDirectory)
        return folder
    }

    static func executable(_ path: String, _ text: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
    }

    static func environment(_ folder: TemporaryDirectory, buildStatus: Int32 = 0) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("XDG_") && !$0.key.hasPrefix("PHOTOLIB")
        }
        environment["HOME"] = folder.path
        environment["XDG_RUNTIME_DIR"] = folder.file("run")
        environment["PATH"] = folder.file("bin") + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["PHOTOLIB_WEB_LISTEN"] = "127.0.0.1:0"
        environment["FAKE_BUILD_STATUS"] = String(buildStatus)
        return environment
    }

    /// A log line of either program: time, level, program.
    static func isLogLine(_ line: String) -> Bool {
        line.range(
            of:
                #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (trace|debug|info|notice|warning|error|critical) (photolibd|photolib-web): "#,
            options: .regularExpression) != nil
    }

    @Test func itBuildsOnceQuietlyAndPrintsTheGalleryAddressAfterTheDaemonsFirstLines() async throws {
        let folder = try Self.checkout()
        chmod(folder.file("run"), 0o700)
        let output = Pipe()
        let script = Process()
        // Started with the signals unblocked that the test process's spawning thread may block (SIGTERM among them),
        // as a shell would start it.
        script.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        script.arguments = [
            "-c",
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
                + "signal.signal(signal.SIGPIPE, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])",
            folder.file("scripts/run-daemon"),
        ]
        script.environment = Self.environment(folder)
        script.standardInput = FileHandle.nullDevice
        script.standardOutput = output
        script.standardError = output
        try script.run()
        defer { if script.isRunning { kill(script.processIdentifier, SIGKILL) } }

        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("gallery: open http://") {
            let chunk = output.fileHandleForReading.availableData
            try #require(
                !chunk.isEmpty,
                "run-daemon ended before printing the address:\n\(String(decoding: seen, as: UTF8.self))")
            seen += chunk
        }
        let beforeAddress = String(decoding: seen, as: UTF8.self).split(separator: "\n").map(String.init)
        // Stopped as a person does (the script stops both programs); everything they print until then is read.
        kill(script.processIdentifier, SIGTERM)
        let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()

        let calls = try String(contentsOfFile: folder.file("swift-calls"), encoding: .utf8).split(separator: "\n")
        #expect(calls == ["build -c debug"], "one build of every product: \(calls)")
        let log = try String(contentsOfFile: folder.file(".build/run-daemon-build.log"), encoding: .utf8)
        #expect(log.contains("[\(Self.fakeBuildLines)/\(Self.fakeBuildLines)] Compiling"), "the build's log is kept")

        #expect(
            !beforeAddress.contains { $0.contains("Compiling") || $0.contains("warning: a warning") },
            "\(beforeAddress)")
        #expect(
            beforeAddress.first == "building photolibd (debug)…"
                && beforeAddress.contains { $0.hasPrefix("built photolibd (debug) in ") })
        let listening = beforeAddress.firstIndex { $0.contains(" listening socket=") }
        let address = beforeAddress.firstIndex {
            $0.hasPrefix("gallery: open http://127.0.0.1:") && $0.contains("/?token=")
        }
        #expect(listening != nil && address == beforeAddress.count - 1 && listening! < address!, "\(beforeAddress)")
        #expect(beforeAddress.count < 30, "\(beforeAddress.count) lines before the address")

        let logLines = (beforeAddress + rest.split(separator: "\n").map(String.init)).filter {
            $0.first?.isNumber == true
        }
        #expect(!logLines.isEmpty && logLines.allSatisfy(Self.isLogLine), "\(logLines)")
        #expect(!rest.contains(" warning photolib-web: ") && !rest.contains("change stream ended"), "\(rest)")
    }

    @Test func aFailedBuildShowsItsWholeLogAndRunsNothing() throws {
        let folder = try Self.checkout()
        let run = try runTool(
            folder.file("scripts/run-daemon"), [], environment: Self.environment(folder, buildStatus: 1), checked: false
        )
        #expect(run.status != 0)
        #expect(
            run.errors.contains("[1/\(Self.fakeBuildLines)] Compiling") && run.errors.contains("warning: a warning"))
        #expect(
            run.errors.contains("run-daemon: the build failed") && run.errors.contains(".build/run-daemon-build.log"))
        #expect(!run.output.contains("gallery: open") && !run.errors.contains("gallery: open"))
    }

    @Test func verboseShowsTheBuildsOutputAsItComes() throws {
        let folder = try Self.checkout()
        let run = try runTool(
            folder.file("scripts/run-daemon"), ["--verbose"], environment: Self.environment(folder, buildStatus: 1),
            checked: false)
        #expect(run.status != 0)
        #expect(
            run.output.contains("[\(Self.fakeBuildLines)/\(Self.fakeBuildLines)] Compiling"),
            "\(run.output.suffix(500))")
        #expect(!run.output.contains("building photolibd (debug)…"))
    }
}
