import Foundation
import Imaging
import Testing
import TestSupport

/// The daemon's side of the RAW helpers, with stand-in helpers (shell scripts) that misbehave in the ways a decoder
/// on a hostile file can: crash, hang, or end while idle. The real helper's behaviour is in RawFileTests.
@Suite struct RawHelperPoolTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "raw-helper-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// A reader whose helper is the shell script `body`, run for each helper started.
    func reader(_ body: String, timeLimit: Int = 10) throws -> RawImageReader {
        let script = directory + "/helper-\(UUID().uuidString)"
        try writeExecutable("#!/bin/sh\n" + body + "\n", to: script)
        return RawImageReader(helper: script, timeLimit: timeLimit)
    }

    /// The reason `info` was refused with.
    func refusal(_ reader: RawImageReader) -> String? {
        do {
            _ = try reader.info(ofFileAt: "/photos/IMG_1.CR3")
            return nil
        } catch {
            guard case .unreadable(_, let reason) = error else { return "\(error)" }
            return reason
        }
    }

    @Test func aHelperAnswersOneCommandAfterAnotherWithoutRestarting() throws {
        // Each reply names the helper's process: the same one answers both.
        let reader = try reader(#"while read command; do echo "{\"status\":1,\"error\":\"helper $$\"}"; done"#)
        let first = refusal(reader), second = refusal(reader)
        #expect(first?.hasPrefix("helper ") == true)
        #expect(first == second)
    }

    @Test func aHelperThatCrashesIsReportedAndReplaced() throws {
        let marker = directory + "/crashed-once"
        // The first helper crashes on its command; the next one answers.
        let reader = try reader("""
            read command
            if [ ! -e \(marker) ]; then touch \(marker); kill -SEGV $$; fi
            echo '{"status":1,"error":"answered"}'
            """)
        #expect(refusal(reader) == "the RAW decoder crashed on it (status \(SIGSEGV))")
        #expect(refusal(reader) == "answered")
    }

    @Test func aHelperPastTheTimeLimitIsKilledWithItsChildren() throws {
        let reader = try reader("read command; sleep 30; echo late", timeLimit: 1)
        let started = ContinuousClock.now
        #expect(refusal(reader) == "LibRaw took more than 1 s")
        #expect(ContinuousClock.now - started < .seconds(8))
    }

    @Test func aHelperThatEndedWhileIdleIsReplacedWithoutLosingTheCommand() throws {
        let reader = try reader(#"read command; echo '{"status":1,"error":"answered"}'; exit 0"#)
        #expect(refusal(reader) == "answered")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(refusal(reader) == "answered")
    }

    @Test func aMissingHelperIsReportedAsSuch() {
        do {
            _ = try RawImageReader(helper: "/nonexistent/photolibd-raw").info(ofFileAt: "/x.dng")
            Issue.record("a missing helper read the file")
        } catch {
            guard case .libraryUnavailable(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("/nonexistent/photolibd-raw"))
        }
    }
}
