import Testing
@testable import PhotolibConfig

@Suite struct ConfigurationFileTests {
    let environment = ["HOME": "/home/ann", "XDG_RUNTIME_DIR": "/run/user/1000"]

    /// The settings of a file with `toml` in it; `file` (which names that file) is left out, for comparisons.
    func load(_ toml: String, in directory: TemporaryDirectory, system: Bool = false) throws -> DaemonConfiguration {
        let file = try directory.write(toml, to: "photolibd.conf")
        var configuration = try DaemonConfiguration.load(fromFile: file, environment: environment, system: system)
        #expect(configuration.file == file)
        configuration.file = nil
        return configuration
    }

    @Test func aFullFileSetsEveryField() throws {
        let directory = try TemporaryDirectory()
        let configuration = try load(
            """
            library = "/srv/photos/library"
            cache = "/srv/photos/cache"
            socket = "/srv/photos/socket"

            [trash]
            retention_days = 7

            [history]
            retention_days = 90

            [access]
            users = ["root", 1000]
            read_only_users = [1001, "1002"]
            add_only_users = [1003]

            [[source]]
            path = "/srv/photos/drop"
            mode = "move"
            recursive = true

            [[source]]
            path = "/mnt/camera"
            mode = "reference"
            recursive = false

            [[source]]
            path = "/srv/scans"
            mode = "copy"
            """, in: directory, system: true)
        #expect(configuration == DaemonConfiguration(
            libraryPath: "/srv/photos/library",
            cachePath: "/srv/photos/cache",
            socketPath: "/srv/photos/socket",
            sources: [
                SourceConfiguration(path: "/srv/photos/drop", mode: .move, recursive: true),
                SourceConfiguration(path: "/mnt/camera", mode: .reference, recursive: false),
                SourceConfiguration(path: "/srv/scans", mode: .copy, recursive: true),
            ],
            trashRetentionDays: 7,
            historyRetentionDays: 90,
            access: AccessPolicy(readWriteUsers: [0, 1000], readOnlyUsers: [1001, 1002], addOnlyUsers: [1003]),
            isSystemDaemon: true))
    }

    @Test func keysLeftOutKeepTheirDefaults() throws {
        let directory = try TemporaryDirectory()
        let configuration = try load("cache = \"/srv/cache\"\n", in: directory)
        var expected = DaemonConfiguration.embeddedDefault(environment: environment, system: false)
        expected.cachePath = "/srv/cache"
        #expect(configuration == expected)
    }

    @Test func anEmptySourceArrayMeansNoSources() throws {
        let directory = try TemporaryDirectory()
        #expect(try load("source = []\n", in: directory).sources == [])
    }

    @Test func photolibdSocketOverridesTheSocketSetting() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("socket = \"/srv/socket\"\n", to: "photolibd.conf")
        let configuration = try DaemonConfiguration.load(
            fromFile: file, environment: ["PHOTOLIBD_SOCKET": "/tmp/override.sock"], system: false)
        #expect(configuration.socketPath == "/tmp/override.sock")
    }

    @Test func relativePathsAreResolvedAgainstTheFilesDirectory() throws {
        let directory = try TemporaryDirectory()
        let configuration = try load(
            """
            library = "library"
            cache = "./state/../cache"
            socket = "run/socket"
            [[source]]
            path = "../drop"
            mode = "move"
            """, in: directory)
        let parent = String(directory.path.split(separator: "/").dropLast().joined(separator: "/"))
        #expect(configuration.libraryPath == directory.path + "/library")
        #expect(configuration.cachePath == directory.path + "/cache")
        #expect(configuration.socketPath == directory.path + "/run/socket")
        #expect(configuration.sources.map(\.path) == ["/" + parent + "/drop"])
    }

    @Test func aTildeIsTheHomeDirectory() throws {
        let directory = try TemporaryDirectory()
        let configuration = try load(
            """
            library = "~/Pictures/Library"
            cache = "~"
            [[source]]
            path = "~/Dropbox/Camera Uploads"
            mode = "copy"
            """, in: directory)
        #expect(configuration.libraryPath == "/home/ann/Pictures/Library")
        #expect(configuration.cachePath == "/home/ann")
        #expect(configuration.sources.map(\.path) == ["/home/ann/Dropbox/Camera Uploads"])
    }

    @Test func anUnknownKeyIsNamedWithItsLine() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            """
            library = "/srv/library"

            [access]
            users = []
            readonly_users = ["root"]
            """, to: "photolibd.conf")
        let error = #expect(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(fromFile: file, environment: environment, system: false)
        }
        #expect(error == .unknownKey(
            file: file, key: "access.readonly_users", line: 5, knownKeys: ["users", "read_only_users", "add_only_users"]))
        #expect(error?.message
            == "\(file):5: unknown key `access.readonly_users`; known keys here: users, read_only_users, add_only_users")
    }

    @Test func anUnknownKeyInTheSecondSourceIsFoundOnItsLine() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            """
            [[source]]
            path = "/a"
            mode = "move"

            [[source]]
            path = "/b"
            mode = "move"
            recurse = false
            """, to: "photolibd.conf")
        let error = #expect(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(fromFile: file, environment: environment, system: false)
        }
        #expect(error?.key == "source[1].recurse")
        #expect(error?.line == 8)
    }

    @Test func anUnknownTableIsAnUnknownKey() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("library = \"/l\"\n\n[trash_bin]\nretention_days = 3\n", to: "photolibd.conf")
        let error = #expect(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(fromFile: file, environment: environment, system: false)
        }
        #expect(error?.key == "trash_bin")
        #expect(error?.line == 3)
    }

    @Test func aValueOfTheWrongTypeNamesTheKeyAndBothTypes() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("[trash]\nretention_days = \"30\"\n", to: "photolibd.conf")
        let error = #expect(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(fromFile: file, environment: environment, system: false)
        }
        #expect(error == .wrongType(
            file: file, key: "trash.retention_days", line: 2, expected: "an integer", found: "a string"))
        #expect(error?.message == "\(file):2: `trash.retention_days` must be an integer, not a string")
    }

    @Test func anUnknownModeListsTheModes() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("[[source]]\npath = \"/drop\"\nmode = \"mvoe\"\n", to: "photolibd.conf")
        let error = #expect(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(fromFile: file, environment: environment, system: false)
        }
        #expect(error == .invalidValue(
            file: file, key: "source[0].mode", line: 3, reason: "is \"mvoe\"; use one of: move, copy, reference"))
    }

    @Test func anUnknownUserNameIsAnError() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "[access]\nusers = [\"root\", \"no-such-user-photolibd\"]\n", to: "photolibd.conf")
        let error = #expect(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(fromFile: file, environment: environment, system: false)
        }
        #expect(error == .unknownUser(file: file, key: "access.users[1]", line: 2, name: "no-such-user-photolibd"))
        #expect(error?.message.contains("numeric uid") == true)
    }

    @Test func aLoadedFileThatDoesNotExistIsAnError() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path + "/missing.conf"
        let error = #expect(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(fromFile: missing, environment: environment, system: false)
        }
        #expect(error == .fileNotFound(file: missing))
    }

    @Test func aDirectoryIsNotAConfigFile() throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(fromFile: directory.path, environment: environment, system: false)
        }
        guard case .unreadableFile(let file, _) = error else {
            Issue.record("expected unreadableFile, got \(String(describing: error))")
            return
        }
        #expect(file == directory.path)
    }

    @Test func invalidTOMLReportsLineAndColumn() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("library = \"/l\"\ncache = \n", to: "photolibd.conf")
        let error = #expect(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(fromFile: file, environment: environment, system: false)
        }
        guard case .syntaxError(let errorFile, let line, _, _) = error else {
            Issue.record("expected syntaxError, got \(String(describing: error))")
            return
        }
        #expect(errorFile == file)
        #expect(line == 2)
    }

    /// Found by fuzzing: toml++ asserted (aborting the daemon) on a non-ASCII or control character, or a comment,
    /// where a key starts.
    @Test(arguments: [
        ("source = []\n[émages]\nx = 1\n", 2, 2, KeyCheckReasons.unprintable),
        ("# café\nclé = 1\n", 2, 3, KeyCheckReasons.unprintable),
        ("library = \"/l\"\ncache = é\n", 2, 9, KeyCheckReasons.unprintable),
        ("x = \"\"\"\nline \\\n\"\"\"\n[\u{FFFD}]\n", 4, 2, KeyCheckReasons.unprintable),
        ("source = []\n[\u{1B}mages]\n", 2, 2, KeyCheckReasons.unprintable),
        ("[[# photolibd configuration\n", 1, 3, KeyCheckReasons.badKeyStart),
        ("[images.  #x]\n", 1, 11, KeyCheckReasons.badKeyStart),
        ("x = { a = 1, !b = 2 }\n", 1, 14, KeyCheckReasons.badKeyStart),
        ("x = [1,\n# fine\n  2]\n[a.\"b c\".d]\ne = { }\n?f = 1\n", 6, 1, KeyCheckReasons.badKeyStart),
        ("source = [}\n", 1, 11, KeyCheckReasons.badValueStart),
        ("source = []\n[\n[images]\n", 2, 2, KeyCheckReasons.badKeyStart),
        ("[\r", 1, 2, "a carriage return belongs only before a line feed"),
        ("[\r\n", 1, 3, KeyCheckReasons.badKeyStart),
        ("x = ,\n", 1, 5, KeyCheckReasons.badValueStart),
        ("x = # nothing\n", 1, 5, KeyCheckReasons.badValueStart),
        ("x = [ # a list\n  1, 2,\n]\ny = [[1], []]\nz =\n", 5, 4, KeyCheckReasons.badValueStart),
    ])
    func whatTomlPlusPlusWouldAbortOnIsASyntaxError(toml: String, line: Int, column: Int, reason: String) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(toml, to: "photolibd.conf")
        #expect(throws: ConfigurationError.syntaxError(file: file, line: line, column: column, reason: reason)) {
            try DaemonConfiguration.load(fromFile: file, environment: environment, system: false)
        }
    }

    @Test func charactersOutsideASCIIAreFineInStringsAndComments() throws {
        let directory = try TemporaryDirectory()
        let configuration = try load("# Photos d'été\nlibrary = \"/srv/Photos d'été\" # à la maison\ncache = '/srv/café'\n",
                                     in: directory)
        #expect(configuration.libraryPath == "/srv/Photos d'été" && configuration.cachePath == "/srv/café")
    }

    static let invalidFiles: [(toml: String, key: String, line: Int?)] = [
        ("library = 3\n", "library", 1),
        ("library = \"\"\n", "library", 1),
        ("trash = 30\n", "trash", 1),
        ("[history]\nretention_days = -1\n", "history.retention_days", 2),
        ("[history]\nretention_days = 1.5\n", "history.retention_days", 2),
        ("[access]\nusers = \"root\"\n", "access.users", 2),
        ("[access]\nusers = [true]\n", "access.users[0]", 2),
        ("[access]\nusers = [4294967295]\n", "access.users[0]", 2),
        ("[access]\nusers = [-3]\n", "access.users[0]", 2),
        ("[access]\nusers = [\"root\"]\nread_only_users = [0]\n", "access.read_only_users", 3),
        ("[access]\nread_only_users = [7]\nadd_only_users = [7]\n", "access.add_only_users", 3),
        ("[source]\npath = \"/drop\"\n", "source", 1),
        ("source = [1]\n", "source[0]", 1),
        ("[[source]]\nmode = \"move\"\n", "source[0].path", 1),
        ("[[source]]\npath = \"/drop\"\n", "source[0].mode", 1),
        ("[[source]]\npath = \"/drop\"\nmode = \"copy\"\nrecursive = \"yes\"\n", "source[0].recursive", 4),
        (
            "[[source]]\npath = \"/d\"\nmode = \"copy\"\n[[source]]\npath = \"/d/\"\nmode = \"move\"\n",
            "source[1].path", 5
        ),
    ]

    @Test("A bad value is reported with its key and line", arguments: invalidFiles)
    func badValuesNameTheirKeyAndLine(toml: String, key: String, line: Int?) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(toml, to: "photolibd.conf")
        let error = #expect(throws: ConfigurationError.self) {
            try DaemonConfiguration.load(fromFile: file, environment: environment, system: false)
        }
        #expect(error?.key == key)
        #expect(error?.line == line)
        #expect(error?.message.hasPrefix(file) == true)
    }
}

/// The reasons `TOMLKeyCheck` gives.
enum KeyCheckReasons {
    static let unprintable = "a character outside printable ASCII belongs only in a quoted string or a comment"
    static let badKeyStart = "a key must start with a letter, a digit, '-', '_' or a quote"
    static let badValueStart = "a value must be a string, number, boolean, date, array or inline table"
}
