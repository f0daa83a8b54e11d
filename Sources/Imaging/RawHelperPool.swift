import Foundation
import Synchronization
import ToolProcess

/// `photolibd-raw serve` processes kept running between reads: starting one costs about 25 ms (the Swift runtime,
/// libvips and LibRaw load), as much as a thumbnail from a RAW's preview. A caller takes an idle helper or starts
/// one, and gives it back when it answered; a helper that crashed, broke the protocol or ran out of time is killed
/// and not used again, and one left idle for 20 s is stopped.
final class RawHelperPool: Sendable {
    enum Failure: Error {
        case cannotStart(String)
        case timedOut
        /// The helper ended (crashed) before answering, or answered with something other than a reply.
        case ended(ChildProcess.Termination?)
    }

    let executable: String
    private let idle = Mutex<[RawHelper]>([])
    /// Idle helpers kept: one per core, as many as reads can run at once.
    private let maximumIdle = ProcessInfo.processInfo.activeProcessorCount
    /// Helpers idle this long are stopped: a decode leaves a helper with tens of megabytes.
    private static let idleLimit = Duration.seconds(20)

    init(executable: String) {
        self.executable = executable
    }

    deinit {
        idle.withLock { $0 }.forEach { $0.stop() }
    }

    /// Runs one helper command (its words, as on the command line) and returns the helper's reply.
    func call(_ arguments: [String], timeLimit: Int) throws(Failure) -> RawHelperReply {
        if let helper = takeIdle() {
            do {
                return try call(arguments, on: helper, timeLimit: timeLimit)
            } catch .ended(nil) where !helper.receivedCommand {
                // It had ended before the command reached it; another helper gets it.
            }
        }
        return try call(arguments, on: try RawHelper(executable: executable), timeLimit: timeLimit)
    }

    private func call(_ arguments: [String], on helper: RawHelper, timeLimit: Int) throws(Failure) -> RawHelperReply {
        do {
            let reply = try helper.call(arguments, timeLimit: timeLimit)
            giveBack(helper)
            return reply
        } catch {
            helper.stop()
            throw error
        }
    }

    private func takeIdle() -> RawHelper? {
        idle.withLock { $0.popLast() }
    }

    /// Keeps `helper` for the next call, and stops it once it has been idle for ``idleLimit``.
    private func giveBack(_ helper: RawHelper) {
        let kept = idle.withLock { helpers in
            guard helpers.count < maximumIdle else { return false }
            helpers.append(helper)
            return true
        }
        guard kept else { return helper.stop() }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(Self.idleLimit.components.seconds))) { [weak self] in
            self?.stopIdleHelpers()
        }
    }

    private func stopIdleHelpers() {
        let now = ContinuousClock.now
        let stale = idle.withLock { helpers in
            let stale = helpers.filter { now - $0.lastAnswered >= Self.idleLimit }
            helpers.removeAll { now - $0.lastAnswered >= Self.idleLimit }
            return stale
        }
        stale.forEach { $0.stop() }
    }
}

/// One running `photolibd-raw serve`, used by one caller at a time. Commands and replies are lines over a socket
/// pair, which the daemon writes with `MSG_NOSIGNAL`: a helper gone is an error, not a SIGPIPE.
private final class RawHelper: @unchecked Sendable {
    // @unchecked: the pool hands a helper to one caller at a time.
    private let process: ChildProcess
    private let socket: Int32
    private var replies: LineReader
    private(set) var lastAnswered = ContinuousClock.now
    /// Whether a command was sent whole: a helper that ends after that ended on the command's file.
    private(set) var receivedCommand = false

    init(executable: String) throws(RawHelperPool.Failure) {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw .cannotStart("cannot make a socket pair: \(String(cString: strerror(errno)))")
        }
        let discarded = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer {
            close(ends[1])
            close(discarded)
        }
        do {
            // LibRaw's and libtiff's warnings are not read: a full pipe would stall the helper.
            process = try ChildProcess(executable: executable, arguments: ["serve"], standardInput: ends[1],
                                       standardOutput: ends[1], standardError: discarded)
        } catch {
            close(ends[0])
            guard case .cannotStart(let reason) = error else { throw .cannotStart("\(error)") }
            throw .cannotStart(reason)
        }
        socket = ends[0]
        replies = LineReader(descriptor: ends[0])
    }

    func call(_ arguments: [String], timeLimit: Int) throws(RawHelperPool.Failure) -> RawHelperReply {
        var command = (try? JSONEncoder().encode(arguments)) ?? Data()
        command.append(UInt8(ascii: "\n"))
        receivedCommand = false
        guard sendAll(command) else { throw .ended(nil) }
        receivedCommand = true
        let started = ContinuousClock.now
        guard let line = process.withTimeLimit(timeLimit, { replies.nextLine() }) else {
            let termination = process.waitForExit()
            if termination == .killed(signal: SIGKILL), ContinuousClock.now - started >= .seconds(timeLimit) {
                throw .timedOut
            }
            throw .ended(termination)
        }
        guard let reply = try? JSONDecoder().decode(RawHelperReply.self, from: line) else { throw .ended(nil) }
        lastAnswered = .now
        return reply
    }

    /// Ends the helper: it stops reading when its input closes; the kill is for one that does not.
    func stop() {
        close(socket)
        process.kill()
        _ = process.waitForExit()
    }

    private func sendAll(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }
    }
}
