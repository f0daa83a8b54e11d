import Foundation
import Testing

@testable import PhotolibConfig

/// A suite that checks one table of photolibd.conf: it loads files written from TOML in `environment`.
protocol ConfigurationFileLoading {
    var environment: [String: String] { get }
}

extension ConfigurationFileLoading {
    func load(_ toml: String) throws -> DaemonConfiguration {
        let directory = try TemporaryDirectory()
        let file = try directory.write(toml, to: "photolibd.conf")
        return try DaemonConfiguration.load(fromFile: file, environment: environment, system: false)
    }

    /// The error loading `toml` throws (a test issue when it throws none), and the file's path.
    func loadError(_ toml: String) throws -> (ConfigurationError?, String) {
        let directory = try TemporaryDirectory()
        let file = try directory.write(toml, to: "photolibd.conf")
        let error = #expect(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(fromFile: file, environment: environment, system: false)
        }
        return (error, file)
    }
}
