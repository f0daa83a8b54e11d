import ArgumentParser
import Foundation
import Glibc
import PhotoLibrary
import PhotolibLocations

struct GalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Print the address of the web gallery (photolib-web), or open it in the browser with --open.",
        discussion: """
            The address carries the token photolib-web wrote to $XDG_RUNTIME_DIR/photolibd/web-token when it \
            started; scripts/run-daemon starts it beside the daemon.
            """
    )

    @Option(help: ArgumentHelp("Where photolib-web listens, as given to its --listen.", valueName: "host:port"))
    var listen = "127.0.0.1:8470"

    @Flag(help: "Open the gallery in the desktop's browser (xdg-open).")
    var open = false

    func run() async throws {
        let tokenFile = Self.tokenFile(environment: ProcessInfo.processInfo.environment)
        guard let token = (try? String(contentsOfFile: tokenFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines),
              !token.isEmpty else {
            throw CommandFailure("the gallery is not running (no token in \(tokenFile)). \(DaemonStart.advice(for: "photolib-web"))")
        }
        guard let (host, port) = Self.hostAndPort(listen) else {
            throw ValidationError("--listen takes HOST:PORT, such as 127.0.0.1:8470")
        }
        guard Self.answers(host: host, port: port) else {
            throw CommandFailure("nothing listens on \(listen): photolib-web is not running there (or listens elsewhere: "
                + "give its --listen). \(DaemonStart.advice(for: "photolib-web"))")
        }
        let address = "http://\(listen)/?token=\(token)"
        if open { try Desktop.open(address) }
        Console.print(address)
    }

    /// `$XDG_RUNTIME_DIR/photolibd/web-token`, or the same under `/run/user/UID` without the variable.
    static func tokenFile(environment: [String: String]) -> String {
        let runtime = UserEnvironment(environment).runtimeDirectory ?? "/run/user/\(geteuid())"
        return Path.join(runtime, "photolibd/web-token")
    }

    private static func hostAndPort(_ listen: String) -> (String, UInt16)? {
        guard let colon = listen.lastIndex(of: ":"), let port = UInt16(listen[listen.index(after: colon)...]) else { return nil }
        let host = String(listen[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host.isEmpty ? nil : (host == "localhost" ? "127.0.0.1" : host, port)
    }

    /// Whether a TCP connection to the IPv4 or IPv6 address `host` and `port` is accepted.
    private static func answers(host: String, port: UInt16) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found else { return false }
        defer { freeaddrinfo(found) }
        let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0
    }
}
