import ArgumentParser
import PhotoLibrary

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether the daemon runs, what this user may do, and the importer's counters."
    )

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let library = try await connection.connect()
        let authorization = try await library.authorizationStatus()
        Console.print("photolibd:      running (socket \(library.socketPath))")
        Console.print("authorization:  \(authorization.rawValue)")
        let assets = try await library.fetchAssets(pageSize: 0)
        Console.print("library:        \(assets.count) assets, token \(assets.token)")
        guard authorization.canRead else { return }
        let status = try await library.importStatus()
        Console.print("import:         \(status.queued) queued, \(status.processing) processing, "
            + "\(status.imported) imported, \(status.failed) failed, \(status.sources) sources")
        if let lastError = status.lastError {
            Console.print("last error:     \(lastError)")
        }
    }
}
