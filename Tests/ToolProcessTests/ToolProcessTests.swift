import Foundation
import Testing
import ToolProcess

/// Real processes: output, error messages, exit status, a missing executable and the time limit.
@Suite struct ToolProcessTests {
    @Test func outputStatusAndTheLastErrorLineAreCollected() throws {
        let outcome = try ToolProcess(executable: "/bin/sh", timeLimit: 10)
            .run(["-c", "printf 'result'; printf 'first\\nlast\\n' >&2; exit 3"])
        #expect(String(decoding: outcome.output, as: UTF8.self) == "result")
        #expect(outcome.status == 3)
        #expect(outcome.lastErrorLine == "last")
    }

    @Test func outputLargerThanAPipeDoesNotBlockTheTool() throws {
        let outcome = try ToolProcess(executable: "/bin/sh", timeLimit: 10)
            .run(["-c", "head -c 1000000 /dev/zero; head -c 1000000 /dev/zero >&2"])
        #expect(outcome.output.count == 1_000_000 && outcome.status == 0)
    }

    @Test func aMissingExecutableCannotStart() {
        #expect {
            try ToolProcess(executable: "/nonexistent/tool", timeLimit: 10).run([])
        } throws: { error in
            guard case .cannotStart(let reason)? = error as? ToolProcess.Failure else { return false }
            return reason.hasPrefix("/nonexistent/tool")
        }
    }

    @Test func aToolPastItsTimeLimitIsKilled() {
        let started = ContinuousClock.now
        #expect(throws: ToolProcess.Failure.timedOut) {
            try ToolProcess(executable: "/bin/sleep", timeLimit: 1).run(["30"])
        }
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func theTimeLimitKillsTheToolsChildrenToo() {
        // The shell's child `sleep` holds the output pipe open: it must die with the shell for the read to end.
        let started = ContinuousClock.now
        #expect(throws: ToolProcess.Failure.timedOut) {
            try ToolProcess(executable: "/bin/sh", timeLimit: 1).run(["-c", "sleep 30; echo late"])
        }
        #expect(ContinuousClock.now - started < .seconds(8))
    }

    @Test func aToolGetsNoneOfTheCallersDescriptors() throws {
        let inherited = open("/dev/null", O_RDONLY)  // without O_CLOEXEC, as a library might leave one
        try #require(inherited > 2)
        defer { close(inherited) }
        let outcome = try ToolProcess(executable: "/bin/sh", timeLimit: 10).run(["-c", "ls /proc/$$/fd"])
        let descriptors = String(decoding: outcome.output, as: UTF8.self).split(whereSeparator: \.isNewline)
        #expect(Set(descriptors).isSuperset(of: ["0", "1", "2"]))
        #expect(!descriptors.contains(Substring(String(inherited))))
    }

    @Test func theTimeLimitHoldsWhileEveryDispatchThreadIsBlocked() {
        // As when many blocking renders and reads run at once: Dispatch's pool is full for ten seconds.
        let release = DispatchSemaphore(value: 0)
        let blockers = 32
        for _ in 0..<blockers {
            DispatchQueue.global().async { _ = release.wait(timeout: .now() + .seconds(10)) }
        }
        defer { for _ in 0..<blockers { release.signal() } }
        let started = ContinuousClock.now
        #expect(throws: ToolProcess.Failure.timedOut) {
            try ToolProcess(executable: "/bin/sh", timeLimit: 1).run(["-c", "head -c 1000000 /dev/zero >&2; exec sleep 30"])
        }
        #expect(ContinuousClock.now - started < .seconds(8))
    }
}
