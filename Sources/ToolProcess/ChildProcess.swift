import CSpawn
import Foundation
import Glibc
import Synchronization

/// A process started with `posix_spawn` in a process group of its own, with none of this process's descriptors
/// but the three it is given: killing it kills the group, so a shell's children go with it and release its pipes.
///
/// Foundation's `Process` took 50 ms to start and reap a tool that ran for one.
public final class ChildProcess: Sendable {
    public let id: pid_t
    /// Set once the process is reaped.
    private let termination = Mutex<Termination?>(nil)

    /// How the process ended.
    public enum Termination: Sendable, Hashable {
        case exited(Int32)
        case killed(signal: Int32)

        /// The exit code, or the number of the signal that ended the process.
        public var status: Int32 {
            switch self {
            case .exited(let code): code
            case .killed(let signal): signal
            }
        }
    }

    /// Starts `executable` with `arguments`; `standardInput` nil reads `/dev/null`.
    public init(
        executable: String, arguments: [String], standardInput: Int32?, standardOutput: Int32,
        standardError: Int32
    ) throws(ToolProcess.Failure) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput {
            posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        // The child starts with no signal blocked and every signal at its default, whatever this process set.
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var id = pid_t()
        let spawned = posix_spawn(&id, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw .cannotStart("\(executable): \(String(cString: strerror(spawned)))") }
        self.id = id
    }

    /// Kills the process group, unless the process was reaped (its id could be another's by now).
    public func kill() {
        termination.withLock { termination in
            if termination == nil { Glibc.kill(-id, SIGKILL) }
        }
    }

    /// Runs `body`, killing the process if `body` has not returned after `seconds`.
    ///
    /// The alarm is a thread of its own, not a Dispatch work item: Linux's Dispatch pool grows slowly while its
    /// threads block (measured: a one-second timer fired after 17 s with 32 blocked items).
    public func withTimeLimit<Value, Failure: Error>(
        _ seconds: Int, _ body: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        let finished = DispatchSemaphore(value: 0)
        Thread { [self] in
            if finished.wait(timeout: .now() + .seconds(seconds)) == .timedOut { kill() }
        }.start()
        defer { finished.signal() }
        return try body()
    }

    /// Waits for the process to end and reaps it; once reaped, how it ended.
    public func waitForExit() -> Termination {
        if let termination = termination.withLock({ $0 }) { return termination }
        var info = siginfo_t()
        // Waits without reaping, so that `kill` cannot meet a reused id while this waits for the lock.
        while waitid(P_PID, id_t(id), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        return termination.withLock { termination in
            if let termination { return termination }
            var status: Int32 = 0
            while waitpid(id, &status, 0) < 0 && errno == EINTR {}
            let signal = status & 0x7f
            let ended: Termination = signal == 0 ? .exited((status >> 8) & 0xff) : .killed(signal: signal)
            termination = ended
            return ended
        }
    }
}
