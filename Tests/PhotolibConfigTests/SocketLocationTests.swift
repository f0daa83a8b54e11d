import Testing
@testable import PhotolibLocations

struct SocketCase: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var environment: [String: String] = [:]
    var configured: String?
    var system = false
    var uid: UInt32 = 1000
    var existingDirectories: Set<String> = []
    var expected: String
}

@Suite struct SocketLocationTests {
    static let cases: [SocketCase] = [
        SocketCase(
            testDescription: "PHOTOLIBD_SOCKET wins over everything",
            environment: ["PHOTOLIBD_SOCKET": "/srv/p.sock", "XDG_RUNTIME_DIR": "/run/user/1000"],
            configured: "/etc/configured.sock", system: true, expected: "/srv/p.sock"),
        SocketCase(
            testDescription: "an empty PHOTOLIBD_SOCKET is ignored",
            environment: ["PHOTOLIBD_SOCKET": ""], configured: "/etc/configured.sock",
            expected: "/etc/configured.sock"),
        SocketCase(
            testDescription: "the configured socket wins over XDG_RUNTIME_DIR",
            environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], configured: "/srv/configured.sock",
            expected: "/srv/configured.sock"),
        SocketCase(
            testDescription: "the system daemon uses /run/photolibd",
            environment: ["XDG_RUNTIME_DIR": "/run/user/0"], system: true, uid: 0,
            expected: "/run/photolibd/socket"),
        SocketCase(
            testDescription: "a user daemon uses XDG_RUNTIME_DIR",
            environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], expected: "/run/user/1000/photolibd/socket"),
        SocketCase(
            testDescription: "a trailing slash on XDG_RUNTIME_DIR is not doubled",
            environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"], expected: "/run/user/1000/photolibd/socket"),
        SocketCase(
            testDescription: "root without XDG_RUNTIME_DIR uses /run/photolibd",
            uid: 0, existingDirectories: ["/run/user/0"], expected: "/run/photolibd/socket"),
        SocketCase(
            testDescription: "a relative XDG_RUNTIME_DIR is ignored",
            environment: ["XDG_RUNTIME_DIR": "run"], existingDirectories: ["/run/user/1000"],
            expected: "/run/user/1000/photolibd/socket"),
        SocketCase(
            testDescription: "without XDG_RUNTIME_DIR an existing /run/user/<uid> is used",
            uid: 1234, existingDirectories: ["/run/user/1234"], expected: "/run/user/1234/photolibd/socket"),
        SocketCase(
            testDescription: "without any runtime directory TMPDIR is used",
            environment: ["TMPDIR": "/var/tmp"], uid: 1234, expected: "/var/tmp/photolibd-1234/socket"),
        SocketCase(
            testDescription: "without any runtime directory or TMPDIR /tmp is used",
            uid: 1234, expected: "/tmp/photolibd-1234/socket"),
    ]

    @Test("The socket path follows the contract's rule", arguments: cases)
    func socketPathFollowsTheRule(_ socketCase: SocketCase) {
        let path = SocketLocation.resolve(
            environment: socketCase.environment, configuredPath: socketCase.configured, system: socketCase.system,
            userID: socketCase.uid, directoryExists: { socketCase.existingDirectories.contains($0) })
        #expect(path == socketCase.expected)
    }

    @Test func theSocketSettingInTheUserConfigFileWinsForClients() throws {
        let directory = try TemporaryDirectory()
        try directory.write("socket = \"sockets/user.sock\"\n", to: "config/photolibd/photolibd.conf")
        let systemFile = try directory.write("socket = \"/srv/system.sock\"\n", to: "etc/photolibd.conf")
        let socket = SocketLocation.forClient(
            environment: ["XDG_CONFIG_HOME": directory.path + "/config", "XDG_RUNTIME_DIR": "/run/user/1000"],
            userID: 1000, systemFile: systemFile, directoryExists: { _ in true }, socketExists: { _ in false })
        #expect(socket == directory.path + "/config/photolibd/sockets/user.sock")
    }

    @Test func clientsReadTheSocketSettingOfTheSystemConfigFileWhenTheUserHasNone() throws {
        let directory = try TemporaryDirectory()
        let systemFile = try directory.write("socket = \"/srv/system.sock\"\n", to: "etc/photolibd.conf")
        let socket = SocketLocation.forClient(
            environment: ["XDG_CONFIG_HOME": directory.path + "/config", "XDG_RUNTIME_DIR": "/run/user/1000"],
            userID: 1000, systemFile: systemFile, directoryExists: { _ in true }, socketExists: { _ in false })
        #expect(socket == "/srv/system.sock")
    }

    @Test func photolibdSocketWinsOverConfigFilesForClients() throws {
        let directory = try TemporaryDirectory()
        let systemFile = try directory.write("socket = \"/srv/system.sock\"\n", to: "etc/photolibd.conf")
        let socket = SocketLocation.forClient(
            environment: ["PHOTOLIBD_SOCKET": "/tmp/test.sock", "XDG_CONFIG_HOME": directory.path],
            userID: 1000, systemFile: systemFile, directoryExists: { _ in true }, socketExists: { _ in false })
        #expect(socket == "/tmp/test.sock")
    }

    @Test("Without settings a client uses the user daemon's socket, or the system daemon's if only that exists",
          arguments: [
            (existing: ["/run/user/1000/photolibd/socket", "/run/photolibd/socket"],
             expected: "/run/user/1000/photolibd/socket"),
            (existing: ["/run/photolibd/socket"], expected: "/run/photolibd/socket"),
            (existing: [], expected: "/run/user/1000/photolibd/socket"),
          ])
    func clientsFallBackToTheSystemSocket(existing: [String], expected: String) throws {
        let directory = try TemporaryDirectory()
        let socket = SocketLocation.forClient(
            environment: ["XDG_CONFIG_HOME": directory.path, "XDG_RUNTIME_DIR": "/run/user/1000"],
            userID: 1000, systemFile: directory.path + "/missing.conf",
            directoryExists: { _ in false }, socketExists: { existing.contains($0) })
        #expect(socket == expected)
    }

    @Test func aMalformedConfigFileDoesNotStopAClientFromFindingASocket() throws {
        let directory = try TemporaryDirectory()
        try directory.write("socket = [not toml\n", to: "photolibd/photolibd.conf")
        let socket = SocketLocation.forClient(
            environment: ["XDG_CONFIG_HOME": directory.path, "XDG_RUNTIME_DIR": "/run/user/1000"],
            userID: 1000, systemFile: directory.path + "/missing.conf",
            directoryExists: { _ in false }, socketExists: { _ in false })
        #expect(socket == "/run/user/1000/photolibd/socket")
    }
}

/// Clients read the `socket` setting without a TOML parser: the forms it may take, and what is not it.
@Test(arguments: [
    ("socket = \"/run/a.sock\"\n", "/run/a.sock"),
    ("# comment\n\n  socket\t=  '/run/literal\\\\n.sock'  # trailing\n", "/run/literal\\\\n.sock"),
    ("socket = \"/run/quote\\\".sock\"", "/run/quote\".sock"),
    ("library = \"/srv/lib\"\n[images]\nsocket = \"/in/a/table.sock\"\n", nil),
    ("socketPath = \"/not/it.sock\"\n", nil),
    ("socket = [not toml\n", nil),
    ("socket = \"/unterminated\n", nil),
    ("socket = \"/run/a.sock\" trailing\n", nil),
    ("socket = \"/run/\\u0041.sock\"\n", nil),
] as [(String, String?)])
func clientsReadTheSocketSettingAlone(text: String, expected: String?) {
    #expect(SocketSetting.value(in: text) == expected)
}
