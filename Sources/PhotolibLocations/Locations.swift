#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the configuration file lives.
public enum ConfigurationLocation {
    /// The system daemon's configuration file.
    public static let systemFile = "/etc/photolibd/photolibd.conf"

    /// The default configuration file: `/etc/photolibd/photolibd.conf` for the system daemon,
    /// `$XDG_CONFIG_HOME/photolibd/photolibd.conf` (default `~/.config/photolibd/photolibd.conf`) for a user daemon.
    public static func defaultFile(environment: [String: String], system: Bool) -> String {
        if system { return systemFile }
        return Path.join(UserEnvironment(environment).configHome, "photolibd/photolibd.conf")
    }
}

/// Where the daemon's socket lives; the one rule shared by the daemon, the CLI and the client module.
public enum SocketLocation {
    /// The environment variable that overrides every other setting.
    public static let environmentVariable = "PHOTOLIBD_SOCKET"
    /// The system daemon's socket.
    public static let systemSocket = "/run/photolibd/socket"

    /// The socket path: `PHOTOLIBD_SOCKET` if set; else the configuration file's `socket` setting;
    /// else `$XDG_RUNTIME_DIR/photolibd/socket` for a user daemon and `/run/photolibd/socket` for the system daemon.
    ///
    /// A user daemon without `XDG_RUNTIME_DIR` uses `/run/photolibd/socket` when running as root,
    /// else `/run/user/<uid>/photolibd/socket` if `/run/user/<uid>` exists,
    /// else `${TMPDIR:-/tmp}/photolibd-<uid>/socket`.
    public static func resolve(environment: [String: String], configuredPath: String?, system: Bool) -> String {
        resolve(
            environment: environment, configuredPath: configuredPath, system: system,
            userID: geteuid(), directoryExists: FileSystem.isDirectory)
    }

    /// The socket a client (the CLI, the `PhotoLibrary` module) connects to.
    ///
    /// The same rule as `resolve`, reading the `socket` setting from the user's configuration file,
    /// then from `/etc/photolibd/photolibd.conf`. When no setting names a socket and no user daemon's
    /// socket exists but the system daemon's does, the system daemon's socket is returned.
    public static func forClient(environment: [String: String]) -> String {
        forClient(
            environment: environment, userID: geteuid(),
            directoryExists: FileSystem.isDirectory, socketExists: FileSystem.exists)
    }

    /// `resolve` with the uid and the file system check supplied, for tests.
    static func resolve(
        environment: [String: String], configuredPath: String?, system: Bool,
        userID: UInt32, directoryExists: (String) -> Bool
    ) -> String {
        let user = UserEnvironment(environment)
        if let override = user.nonEmptyValue(environmentVariable) { return override }
        if let configuredPath, !configuredPath.isEmpty { return configuredPath }
        if system { return systemSocket }
        if let runtime = user.runtimeDirectory { return Path.join(runtime, "photolibd/socket") }
        if userID == 0 { return systemSocket }
        let userRuntime = "/run/user/\(userID)"
        if directoryExists(userRuntime) { return Path.join(userRuntime, "photolibd/socket") }
        let temporary = user.absoluteValue("TMPDIR") ?? "/tmp"
        return Path.join(temporary, "photolibd-\(userID)/socket")
    }

    /// `forClient` with the uid and the file system checks supplied, for tests.
    static func forClient(
        environment: [String: String], userID: UInt32, systemFile: String = ConfigurationLocation.systemFile,
        directoryExists: (String) -> Bool, socketExists: (String) -> Bool
    ) -> String {
        let user = UserEnvironment(environment)
        if let override = user.nonEmptyValue(environmentVariable) { return override }
        for file in [ConfigurationLocation.defaultFile(environment: environment, system: false), systemFile] {
            if let socket = SocketSetting.read(fromConfigurationFile: file, home: user.home) { return socket }
        }
        let userSocket = resolve(
            environment: environment, configuredPath: nil, system: false,
            userID: userID, directoryExists: directoryExists)
        if !socketExists(userSocket) && socketExists(systemSocket) { return systemSocket }
        return userSocket
    }
}

/// The few file system checks the locations need.
package enum FileSystem {
    package static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    package static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }
}
