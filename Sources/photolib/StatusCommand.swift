import ArgumentParser
import PhotoLibrary

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether the daemon runs, what this user may do, and the importer's counters."
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Print the status as one JSON object.")
    var json = false

    private struct Status: Encodable {
        var socket: String
        var authorization: AuthorizationStatus
        var assetCount: Int
        var token: String
        /// The importer's counters, for users who may read the library.
        var importer: ImportStatus?
    }

    func run() async throws {
        let library = try await connection.connect()
        let authorization = try await library.authorizationStatus()
        let assets = try await library.fetchAssets(pageSize: 0)
        let importer = authorization.canRead ? try await library.importStatus() : nil
        let status = Status(socket: library.socketPath, authorization: authorization, assetCount: assets.count,
                            token: assets.token, importer: importer)
        if json { return try Console.printJSON(status) }
        Console.print("photolibd:      running (socket \(status.socket))")
        Console.print("authorization:  \(authorization.rawValue)")
        Console.print("library:        \(assets.count) assets, token \(assets.token)")
        guard let importer else { return }
        Console.print("import:         \(importer.queued) queued, \(importer.processing) processing, "
            + "\(importer.imported) imported, \(importer.failed) failed, \(importer.sources) sources")
        if let lastError = importer.lastError {
            Console.print("last error:     \(lastError)")
        }
    }
}
