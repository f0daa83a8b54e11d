import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import Logging
import PhotolibLocations
import PhotolibWeb

public struct PhotolibWebCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "photolib-web",
        abstract: "The photo library's gallery in a browser, served from photolibd.",
        discussion: """
            photolib-web is a client of photolibd like any other: it acts for the user who runs it, and the daemon \
            decides what that user sees. Its first line on standard output is the address to open, \
            http://HOST:PORT/?token=TOKEN; the token is kept in $XDG_RUNTIME_DIR/photolibd/web-token (mode 0600) and \
            the same address works after a restart. A browser that opened it keeps a session cookie.

            Nothing listens beyond this machine unless asked: the default is 127.0.0.1:8470. Requests whose Host is \
            not that address or localhost are refused (DNS rebinding), as are changes from another site's page. \
            Behind a reverse proxy, --listen unix:PATH serves on a Unix socket.

            Environment: PHOTOLIBD_SOCKET (the daemon's socket, as for photolib), XDG_RUNTIME_DIR, XDG_CACHE_HOME.
            """
    )

    @Option(name: .long, help: "HOST:PORT, or unix:PATH for a reverse proxy (default 127.0.0.1:8470).")
    var listen = "127.0.0.1:8470"

    @Option(name: .long, help: "The daemon's socket (default: as photolib finds it).")
    var socket: String?

    @Option(name: .customLong("allow-host"), help: "Also answer requests for this host name (repeatable).")
    var allowedHosts: [String] = []

    public init() {}

    public func run() async throws {
        raiseOpenFileLimit()
        guard let listenAddress = GalleryConfiguration.Listen(argument: listen) else {
            throw ValidationError("--listen takes HOST:PORT or unix:PATH (an absolute path), not \(listen)")
        }
        let user = UserEnvironment(ProcessInfo.processInfo.environment)
        let runtime = user.runtimeDirectory.map { Path.join($0, "photolibd") } ?? Path.join(user.cacheHome, "photolibd")
        let token = try AccessToken.loadOrCreate(at: Path.join(runtime, "web-token"))
        let staging = Path.join(user.cacheHome, "photolib-web/uploads")
        let configuration = GalleryConfiguration(listen: listenAddress, socketPath: socket, token: token,
                                                 stagingRoot: staging, extraHosts: allowedHosts)
        var logger = Logger(label: "photolib-web")
        logger.logLevel = .notice
        let app = Gallery.makeApplication(configuration, logger: logger) { port in
            let address: String = switch listenAddress {
            case .tcp(let host, let asked): "\(host.contains(":") ? "[\(host)]" : host):\(port ?? asked)"
            case .unix: "localhost"
            }
            // Written at once, unbuffered: scripts read this line while the gallery runs.
            FileHandle.standardOutput.write(Data("http://\(address)/?token=\(token.value)\n".utf8))
            if case .unix(let path) = listenAddress {
                FileHandle.standardError.write(Data("photolib-web: listening on unix:\(path)\n".utf8))
            }
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
