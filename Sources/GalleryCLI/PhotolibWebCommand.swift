import ArgumentParser
import Foundation
import Hummingbird
import JournalLogging
import Logging
import PhotolibLocations
import PhotolibWeb

#if canImport(Glibc)
    import Glibc
#endif

public struct PhotolibWebCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "photolib-web",
        abstract: "The photo library's gallery in a browser, served from photolibd.",
        discussion: """
            photolib-web is a client of photolibd like any other: it acts for the user who runs it, and the daemon \
            decides what that user sees. Its first line on standard output is the address to open, \
            http://HOST:PORT/?token=TOKEN; the token is kept in $XDG_RUNTIME_DIR/photolibd/web-token (mode 0600) and \
            the same address works after a restart, and photolib gallery prints it again. A browser that opened it \
            keeps a session cookie; one without the token or the cookie gets a page that says so and takes the token.

            Nothing listens beyond this machine unless asked: the default is 127.0.0.1:8470. Requests whose Host is \
            not that address or localhost are refused (DNS rebinding), as are changes from another site's page. \
            Behind a reverse proxy, --listen unix:PATH serves on a Unix socket.

            Environment: PHOTOLIBD_SOCKET (the daemon's socket, as for photolib), XDG_RUNTIME_DIR, XDG_CACHE_HOME.
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp(
            "HOST:PORT, or unix:PATH for a reverse proxy (default 127.0.0.1:8470).", valueName: "address"))
    var listen = "127.0.0.1:8470"

    @Option(name: .long, help: ArgumentHelp("The daemon's socket (default: as photolib finds it).", valueName: "path"))
    var socket: String?

    @Option(
        name: .customLong("allow-host"),
        help: ArgumentHelp("Also answer requests for this host name (repeatable).", valueName: "host"))
    var allowedHosts: [String] = []

    public init() {}

    public func run() async throws {
        raiseOpenFileLimit()
        guard let listenAddress = GalleryConfiguration.Listen(argument: listen) else {
            throw ValidationError("--listen takes HOST:PORT or unix:PATH (an absolute path), not \(listen)")
        }
        let user = UserEnvironment(ProcessInfo.processInfo.environment)
        let runtime = user.runtimeDirectory.map { Path.join($0, "photolibd") } ?? Path.join(user.cacheHome, "photolibd")
        let tokenPath = Path.join(runtime, "web-token")
        let token = try AccessToken.loadOrCreate(at: tokenPath)
        let staging = Path.join(user.cacheHome, "photolib-web/uploads")
        let configuration = GalleryConfiguration(
            listen: listenAddress, socketPath: socket, token: token,
            tokenPath: tokenPath, stagingRoot: staging, extraHosts: allowedHosts)
        let forJournal = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil
        LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: .notice, forJournal: forJournal) }
        let logger = Logger(label: "photolib-web")
        let app = Gallery.makeApplication(configuration, logger: logger) { port in
            let address: String =
                switch listenAddress {
                case .tcp(let host, let asked): "\(host.contains(":") ? "[\(host)]" : host):\(port ?? asked)"
                case .unix: "localhost"
                }
            // Written at once, unbuffered: scripts read this line while the gallery runs.
            FileHandle.standardOutput.write(Data("http://\(address)/?token=\(token.value)\n".utf8))
            if case .unix(let path) = listenAddress { logger.notice("listening on unix:\(path)") }
        }
        try await app.runService()
    }

    /// Every open page holds a connection (its event stream) besides those loading pictures: the default soft limit
    /// of 1,024 descriptors would make the thousand-and-first connection wait, so it is raised to the hard limit.
    private func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
