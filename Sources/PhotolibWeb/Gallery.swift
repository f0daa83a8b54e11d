import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// Where the gallery listens and whom it lets in.
public struct GalleryConfiguration: Sendable {
    public enum Listen: Sendable, Equatable {
        case tcp(host: String, port: Int)
        case unix(path: String)

        /// Reads `HOST:PORT`, `[IPv6]:PORT` or `unix:PATH`.
        public init?(argument: String) {
            if argument.hasPrefix("unix:") {
                let path = String(argument.dropFirst(5))
                guard path.hasPrefix("/") else { return nil }
                self = .unix(path: path)
                return
            }
            guard let colon = argument.lastIndex(of: ":"), let port = Int(argument[argument.index(after: colon)...]),
                (0...65535).contains(port)
            else { return nil }
            var host = String(argument[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { return nil }
            self = .tcp(host: host, port: port)
        }

        /// Nothing listens beyond this machine unless asked.
        public static let `default` = Listen.tcp(host: "127.0.0.1", port: 8470)
    }

    public var listen: Listen
    /// The daemon's socket; nil to find it as every client does.
    public var socketPath: String?
    public var token: AccessToken
    /// The file the token is kept in, which the sign-in page names; nil when it is kept nowhere.
    public var tokenPath: String?
    /// Where a file dropped on the page waits until it is sent to the daemon (a folder private to this process's user).
    public var stagingRoot: String
    /// More `Host` names to accept (for a gallery reached by another name than its listen address).
    public var extraHosts: [String]

    public init(
        listen: Listen = .default, socketPath: String? = nil, token: AccessToken, tokenPath: String? = nil,
        stagingRoot: String, extraHosts: [String] = []
    ) {
        self.listen = listen
        self.socketPath = socketPath
        self.token = token
        self.tokenPath = tokenPath
        self.stagingRoot = stagingRoot
        self.extraHosts = extraHosts
    }

    /// The `Host` values the gallery answers to for a TCP listener bound to `boundPort`: its listen address and
    /// `localhost` (the names a rebinding attacker's page cannot use), with the port or without; nil on a Unix socket.
    func allowedHosts(boundPort: Int?) -> Set<String>? {
        guard case .tcp(let host, let listenPort) = listen else { return nil }
        let port = boundPort ?? listenPort
        let named = host.contains(":") ? "[\(host)]" : host
        var names: Set<String> = [named.lowercased(), "localhost"]
        names.formUnion(extraHosts.map { $0.lowercased() })
        return names.union(names.map { "\($0):\(port)" })
    }
}

/// The gallery's HTTP application: routes, access rules, and the daemon's change feed run beside the server.
public enum Gallery {
    /// The application for `configuration`; `onRunning` gets the address actually bound (the port when 0 was asked).
    public static func makeApplication(
        _ configuration: GalleryConfiguration, logger: Logger,
        onRunning: @escaping @Sendable (_ port: Int?) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let connections = LibraryConnections(socketPath: configuration.socketPath)
        let recentThumbnails = RecentThumbnails()
        let feed = LibraryFeed(connections: connections, recentThumbnails: recentThumbnails, logger: logger)
        let allowedHosts = AllowedHosts(configuration)
        let router = Router(context: BasicRequestContext.self)
        router.add(
            middleware: AccessMiddleware(
                token: configuration.token, allowedHosts: allowedHosts,
                signInPage: SignInPage(tokenPath: configuration.tokenPath)))
        PageRoutes().add(to: router)
        ViewRoutes(feed: feed).add(to: router)
        AssetRoutes(connections: connections).add(to: router)
        ChangeRoutes(connections: connections).add(to: router)
        UploadRoutes(connections: connections, stagingRoot: configuration.stagingRoot).add(to: router)
        MediaRoutes(connections: connections, recentThumbnails: recentThumbnails).add(to: router)
        VideoRoutes(videos: VideoSource(connections: connections), files: connections.files).add(to: router)
        let address: BindAddress =
            switch configuration.listen {
            case .tcp(let host, let port): .hostname(host, port: port)
            case .unix(let path): .unixDomainSocket(path: path)
            }
        return Application(
            router: router,
            server: .http1(),
            configuration: ApplicationConfiguration(address: address, serverName: "photolib-web", backlog: 4096),
            services: [FeedService(feed: feed, connections: connections)],
            onServerRunning: { channel in
                let port = channel.localAddress?.port
                allowedHosts.bound(to: port)
                await onRunning(port)
            },
            logger: logger
        )
    }
}

/// Runs the change feed and drops views no page uses, until the application stops.
struct FeedService: Service {
    let feed: LibraryFeed
    let connections: LibraryConnections

    func run() async {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await feed.run() }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(30))
                        await feed.dropIdleViews()
                    }
                }
            }
        }
        await connections.closeAll()
    }
}
