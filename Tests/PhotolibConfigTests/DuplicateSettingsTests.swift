import Foundation
import Testing

@testable import PhotolibConfig

@Suite struct DuplicateSettingsTests: ConfigurationFileLoading {
    let environment = ["HOME": "/home/ann", "XDG_RUNTIME_DIR": "/run/user/1000"]

    @Test func withoutTheKeyTheThresholdIsTheDefault() throws {
        let threshold = DaemonConfiguration.defaultDuplicateThreshold
        #expect(DaemonConfiguration.duplicateThresholds.contains(threshold))
        for system in [false, true] {
            let embedded = DaemonConfiguration.embeddedDefault(environment: environment, system: system)
            #expect(embedded.duplicateThreshold == threshold)
        }
        #expect(try load("library = \"/srv/library\"\n").duplicateThreshold == threshold)
        #expect(try load("[duplicates]\n# similarity_threshold = 13\n").duplicateThreshold == threshold)
    }

    @Test(arguments: [0, 4, 12])
    func theDuplicatesTableSetsTheThreshold(bits: Int) throws {
        let configuration = try load("library = \"/srv/library\"\n\n[duplicates]\nsimilarity_threshold = \(bits)\n")
        var expected = DaemonConfiguration.embeddedDefault(environment: environment, system: false)
        expected.libraryPath = "/srv/library"
        expected.duplicateThreshold = bits
        expected.file = configuration.file
        #expect(configuration == expected)
    }

    @Test func aThresholdIsPartOfTheConfigurationsIdentity() {
        let configuration = DaemonConfiguration.embeddedDefault(environment: environment, system: true)
        let other = (configuration.duplicateThreshold + 1) % 13
        var changed = configuration
        changed.duplicateThreshold = other
        #expect(changed != configuration)
        #expect(
            changed
                == DaemonConfiguration(
                    libraryPath: configuration.libraryPath, cachePath: configuration.cachePath,
                    socketPath: configuration.socketPath, sources: configuration.sources, isSystemDaemon: true,
                    duplicateThreshold: other))
    }

    @Test(arguments: [-1, 13, 40, Int.max])
    func aThresholdOutsideZeroToTwelveIsRefused(bits: Int) throws {
        let (error, file) = try loadError("[duplicates]\nsimilarity_threshold = \(bits)\n")
        #expect(
            error
                == .invalidValue(
                    file: file, key: "duplicates.similarity_threshold", line: 2,
                    reason: "is \(bits); it must be 0 to 12 bits"))
        #expect(
            error?.message == "\(file):2: `duplicates.similarity_threshold` is \(bits); it must be 0 to 12 bits")
    }

    @Test(arguments: [
        ("\"6\"", "a string"), ("6.0", "a floating-point number"), ("true", "a boolean"), ("[6]", "an array"),
    ])
    func aThresholdThatIsNotAnIntegerIsRefused(value: String, found: String) throws {
        let (error, file) = try loadError("library = \"/l\"\n[duplicates]\nsimilarity_threshold = \(value)\n")
        #expect(
            error
                == .wrongType(
                    file: file, key: "duplicates.similarity_threshold", line: 3, expected: "an integer", found: found))
        #expect(
            error?.message == "\(file):3: `duplicates.similarity_threshold` must be an integer, not \(found)")
    }

    @Test func duplicatesThatIsNotATableIsRefused() throws {
        let (error, file) = try loadError("duplicates = 6\n")
        #expect(
            error
                == .wrongType(
                    file: file, key: "duplicates", line: 1, expected: "a table ([duplicates])", found: "an integer"))
    }

    @Test func anUnknownDuplicatesKeyIsNamedWithItsLine() throws {
        let (error, file) = try loadError("[duplicates]\nsimilarity_threshold = 5\nthreshold = 5\n")
        #expect(
            error
                == .unknownKey(
                    file: file, key: "duplicates.threshold", line: 3, knownKeys: ["similarity_threshold"]))
        #expect(
            error?.message
                == "\(file):3: unknown key `duplicates.threshold`; known keys here: similarity_threshold")
    }

    @Test func aKeyOfTheDuplicatesTableAtTheTopLevelIsAnUnknownKey() throws {
        let (error, _) = try loadError("similarity_threshold = 5\n")
        #expect(error?.key == "similarity_threshold")
        #expect(error?.line == 1)
    }

    /// The shipped file leaves the key commented, so that a daemon follows the measured default; the comment and
    /// photolibd.conf(5) say what that default is, and must say it again when a new measurement changes it.
    @Test func theShippedFileAndTheManPageStateTheDefault() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let threshold = DaemonConfiguration.defaultDuplicateThreshold
        let shipped = try String(
            contentsOf: repository.appendingPathComponent("etc/photolibd.conf"), encoding: .utf8)
        #expect(shipped.contains("\n[duplicates]\n"))
        #expect(
            shipped.contains("\n# similarity_threshold = \(threshold)\n"),
            "etc/photolibd.conf's commented similarity_threshold must be the default, \(threshold)")
        #expect(
            shipped.contains("The default, \(threshold), is"),
            "etc/photolibd.conf must give the default similarity_threshold, \(threshold)")
        let manual = try String(
            contentsOf: repository.appendingPathComponent("docs/photolibd.conf.5"), encoding: .utf8)
        let section = manual.components(separatedBy: "\n.SH [duplicates]\n").dropFirst().first?
            .components(separatedBy: "\n.SH ").first
        #expect(section?.hasPrefix(".TP\n.B similarity_threshold\n") == true)
        #expect(
            section?.contains("(default \(threshold))") == true,
            "docs/photolibd.conf.5 must give the default similarity_threshold, \(threshold)")
    }
}
