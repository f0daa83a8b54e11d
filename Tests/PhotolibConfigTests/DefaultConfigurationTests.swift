import Foundation
import Testing
@testable import PhotolibConfig

@Suite struct DefaultConfigurationTests {
    @Test func theUserDefaultKeepsEverythingInTheXDGDirectories() {
        let environment = [
            "HOME": "/home/ann", "XDG_DATA_HOME": "/data/ann", "XDG_CACHE_HOME": "/cache/ann",
            "XDG_RUNTIME_DIR": "/run/user/1000",
        ]
        let configuration = DaemonConfiguration.embeddedDefault(environment: environment, system: false)
        #expect(configuration.libraryPath == "/data/ann/photolibd/library")
        #expect(configuration.cachePath == "/cache/ann/photolibd")
        #expect(configuration.socketPath == "/run/user/1000/photolibd/socket")
        #expect(configuration.sources == [
            SourceConfiguration(path: "/data/ann/photolibd/drop", mode: .move, recursive: true)
        ])
        #expect(configuration.trashRetentionDays == 30)
        #expect(configuration.historyRetentionDays == 30)
        #expect(configuration.access == AccessPolicy())
        #expect(!configuration.isSystemDaemon)
    }

    @Test func theUserDefaultFallsBackToTheHomeDirectory() {
        let environment = ["HOME": "/home/ann", "XDG_RUNTIME_DIR": "/run/user/1000"]
        let configuration = DaemonConfiguration.embeddedDefault(environment: environment, system: false)
        #expect(configuration.libraryPath == "/home/ann/.local/share/photolibd/library")
        #expect(configuration.cachePath == "/home/ann/.cache/photolibd")
        #expect(configuration.sources.map(\.path) == ["/home/ann/.local/share/photolibd/drop"])
    }

    @Test func theSystemDefaultUsesVarLibAndVarCache() {
        let environment = ["HOME": "/root", "XDG_DATA_HOME": "/data", "XDG_RUNTIME_DIR": "/run/user/0"]
        let configuration = DaemonConfiguration.embeddedDefault(environment: environment, system: true)
        #expect(configuration == DaemonConfiguration(
            libraryPath: "/var/lib/photolibd/library",
            cachePath: "/var/cache/photolibd",
            socketPath: "/run/photolibd/socket",
            sources: [SourceConfiguration(path: "/var/lib/photolibd/drop", mode: .move, recursive: true)],
            trashRetentionDays: 30,
            historyRetentionDays: 30,
            access: AccessPolicy(),
            isSystemDaemon: true))
    }

    @Test func theEmbeddedDefaultHonoursPhotolibdSocket() {
        let configuration = DaemonConfiguration.embeddedDefault(
            environment: ["PHOTOLIBD_SOCKET": "/tmp/x.sock"], system: true)
        #expect(configuration.socketPath == "/tmp/x.sock")
    }

    @Test("The default config file is in /etc for the system daemon and in XDG_CONFIG_HOME for a user", arguments: [
        (["HOME": "/home/ann"], false, "/home/ann/.config/photolibd/photolibd.conf"),
        (["HOME": "/home/ann", "XDG_CONFIG_HOME": "/cfg"], false, "/cfg/photolibd/photolibd.conf"),
        (["HOME": "/home/ann", "XDG_CONFIG_HOME": "relative"], false, "/home/ann/.config/photolibd/photolibd.conf"),
        (["HOME": "/home/ann", "XDG_CONFIG_HOME": "/cfg"], true, "/etc/photolibd/photolibd.conf"),
    ])
    func defaultConfigFile(environment: [String: String], system: Bool, expected: String) {
        #expect(ConfigurationLocation.defaultFile(environment: environment, system: system) == expected)
    }

    @Test func resolvingWithoutAnyFileGivesTheEmbeddedDefault() throws {
        let directory = try TemporaryDirectory()
        let environment = ["HOME": directory.path, "XDG_RUNTIME_DIR": "/run/user/1000"]
        let configuration = try DaemonConfiguration.resolve(configFile: nil, environment: environment, system: false)
        #expect(configuration == DaemonConfiguration.embeddedDefault(environment: environment, system: false))
    }

    @Test func resolvingReadsTheDefaultFileWhenItExists() throws {
        let directory = try TemporaryDirectory()
        try directory.write("library = \"~/Pictures/Library\"\n", to: ".config/photolibd/photolibd.conf")
        let environment = ["HOME": directory.path, "XDG_RUNTIME_DIR": "/run/user/1000"]
        let configuration = try DaemonConfiguration.resolve(configFile: nil, environment: environment, system: false)
        #expect(configuration.libraryPath == directory.path + "/Pictures/Library")
        #expect(configuration.cachePath == directory.path + "/.cache/photolibd")
    }

    @Test func anExplicitConfigFileThatDoesNotExistIsAnError() throws {
        let directory = try TemporaryDirectory()
        try directory.write("library = \"/lib\"\n", to: ".config/photolibd/photolibd.conf")
        let missing = directory.path + "/nope.conf"
        let error = #expect(throws: ConfigurationError.self) {
            try DaemonConfiguration.resolve(configFile: missing, environment: ["HOME": directory.path], system: false)
        }
        #expect(error == .fileNotFound(file: missing))
        #expect(error?.message.contains("--config") == true)
    }

    @Test func theShippedConfigFileMatchesTheSystemDefault() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let shipped = repository.appendingPathComponent("etc/photolibd.conf").path
        let environment = ["HOME": "/root"]
        var configuration = try DaemonConfiguration.load(fromFile: shipped, environment: environment, system: true)
        #expect(configuration.file == shipped)
        configuration.file = nil
        #expect(configuration == DaemonConfiguration.embeddedDefault(environment: environment, system: true))
    }
}
