import ArgumentParser
import Foundation
import PhotoLibrary
import PhotolibLocations

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract:
            "Show whether the daemon runs, where the library, drop folders, cache and socket are, what this user may "
            + "do, and the importer's counters.",
        discussion: "Exits with 1 when the daemon is not running; --json then prints an object saying so."
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Print the status as one JSON object.")
    var json = false

    private struct Status: Encodable {
        var running = true
        var socket: String
        /// This command's version.
        var version = PhotolibVersion.current
        var daemonVersion: String?
        var authorization: AuthorizationStatus
        var assetCount: Int
        var token: String
        /// Where the daemon keeps things, for users who may read the library.
        var library: String?
        var dropFolders: [String]?
        var cache: String?
        /// The importer's counters, for users who may read the library.
        var importer: ImportStatus?
    }

    /// What `--json` prints when the daemon does not answer.
    private struct Absence: Encodable {
        var running = false
        var socket: String
        var version = PhotolibVersion.current
        var error: String
    }

    func run() async throws {
        let library: PhotoLibrary
        do {
            library = try await connection.connect()
        } catch {
            guard json else { throw error }
            let socket = connection.socket ?? SocketLocation.forClient(environment: ProcessInfo.processInfo.environment)
            try Console.printJSON(Absence(socket: socket, error: (error as? PhotoLibraryError)?.message ?? "\(error)"))
            throw ExitCode.failure
        }
        let authorization = try await library.authorizationStatus()
        let assets = try await library.fetchAssets(pageSize: 0)
        var status = Status(
            socket: library.socketPath, authorization: authorization, assetCount: assets.count, token: assets.token)
        if authorization.canRead {
            let importer = try await library.importStatus()
            status.importer = importer
            status.daemonVersion = importer.version
            status.library = importer.library
            status.cache = importer.cache
            status.dropFolders = try await library.listSources().filter { $0.mode == .move }.map(\.path)
        }
        await library.close()
        if json { return try Console.printJSON(status) }
        show(status)
    }

    private func show(_ status: Status) {
        let lines: [(String, String?)] = [
            ("photolibd", "running" + (status.daemonVersion.map { ", version \($0)" } ?? "")),
            ("socket", status.socket),
            ("authorization", status.authorization.rawValue),
            (
                "library",
                Display.count(status.assetCount, "asset") + (status.library.map { " in \($0)" } ?? "")
                    + ", token \(status.token)"
            ),
            ("drop folder", status.dropFolders.map { $0.isEmpty ? "none" : $0.joined(separator: ", ") }),
            ("cache", status.cache),
            (
                "import",
                status.importer.map { importer in
                    "\(importer.queued) queued, \(importer.processing) processing, \(importer.imported) imported, "
                        + "\(importer.failed) failed, \(Display.count(importer.sources, "source"))"
                }
            ),
            ("last error", status.importer?.lastError),
            (
                "not imported",
                status.importer?.leftInDropFolders.map {
                    Self.describe(leftInDropFolders: $0, status.dropFolders ?? [])
                }
            ),
            ("places", status.importer?.analysis?.places.map(Self.describe(places:))),
            ("photolib", "version \(status.version)"),
        ]
        for case let (label, value?) in lines {
            Console.print((label + ":").padding(toLength: 16, withPad: " ", startingAt: 0) + value)
        }
    }

    /// "12 of 40 named": of the located assets the background analysis found unnamed since the daemon started (a
    /// library from before places), how many it named; "all named" when none waited; or why places cannot be named.
    private static func describe(places progress: AnalysisProgress) -> String {
        if let problem = progress.problem { return "not named: \(problem)" }
        return progress.total == 0 ? "all named" : "\(progress.done) of \(progress.total) named"
    }

    /// "1 file in the drop folder is not a photo, video or audio file: junk.txt", a line per reason, each file named
    /// inside its drop folder.
    private static func describe(leftInDropFolders files: [FailedImport], _ dropFolders: [String]) -> String {
        let byReason = Dictionary(grouping: files) { $0.reason.replacingOccurrences(of: " by its name", with: "") }
        return byReason.keys.sorted().map { reason in
            let names = byReason[reason]!.map { file in
                dropFolders.first { file.path.hasPrefix($0 + "/") }.map { String(file.path.dropFirst($0.count + 1)) }
                    ?? file.path
            }
            let shown = names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", …" : "")
            return
                "\(Display.count(names.count, "file")) in the drop folder \(names.count == 1 ? "is" : "are") \(reason): \(shown)"
        }.joined(separator: "\n" + String(repeating: " ", count: 16))
    }
}
