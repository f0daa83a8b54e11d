#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The parts of the process environment that decide default paths: home, XDG base directories.
package struct UserEnvironment {
    package let variables: [String: String]

    package init(_ variables: [String: String]) {
        self.variables = variables
    }

    /// `$HOME` if it is an absolute path, else the home directory in the password database, else `/`.
    package var home: String {
        absoluteValue("HOME") ?? UserDatabase.homeDirectory(ofUID: geteuid()) ?? "/"
    }

    /// `$XDG_CONFIG_HOME`, default `~/.config`.
    package var configHome: String { absoluteValue("XDG_CONFIG_HOME") ?? Path.join(home, ".config") }

    /// `$XDG_DATA_HOME`, default `~/.local/share`.
    package var dataHome: String { absoluteValue("XDG_DATA_HOME") ?? Path.join(home, ".local/share") }

    /// `$XDG_CACHE_HOME`, default `~/.cache`.
    package var cacheHome: String { absoluteValue("XDG_CACHE_HOME") ?? Path.join(home, ".cache") }

    /// `$XDG_RUNTIME_DIR`; it has no default.
    package var runtimeDirectory: String? { absoluteValue("XDG_RUNTIME_DIR") }

    /// A variable's value when it is a non-empty absolute path; the XDG spec says to ignore relative ones.
    package func absoluteValue(_ name: String) -> String? {
        guard let value = variables[name], value.hasPrefix("/") else { return nil }
        return value
    }

    /// A variable's value when it is set and not empty.
    package func nonEmptyValue(_ name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }
}

/// Lexical path operations; nothing here touches the file system.
package enum Path {
    /// `base/component`, without doubling the slash.
    package static func join(_ base: String, _ component: String) -> String {
        base.hasSuffix("/") ? base + component : base + "/" + component
    }

    /// The directory part of an absolute path: `/etc/photolibd` for `/etc/photolibd/photolibd.conf`.
    package static func directory(of path: String) -> String {
        let parts = normalized(path).split(separator: "/")
        return "/" + parts.dropLast().joined(separator: "/")
    }

    /// An absolute path with `.`, `..` and repeated slashes removed.
    package static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Resolves a path written in a configuration file: `~` and `~/…` become the home directory,
    /// relative paths are taken relative to `directory`, and the result is normalized.
    package static func resolve(_ path: String, relativeTo directory: String, home: String) -> String {
        if path == "~" { return normalized(home) }
        if path.hasPrefix("~/") { return normalized(join(home, String(path.dropFirst(2)))) }
        if path.hasPrefix("/") { return normalized(path) }
        return normalized(join(directory, path))
    }

    /// The process's current directory, or `/` when it cannot be read.
    package static var currentDirectory: String {
        guard let pointer = getcwd(nil, 0) else { return "/" }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}

/// Look-ups in the system's user database (`/etc/passwd`, NSS).
package enum UserDatabase {
    /// The uid of the user with this name, or nil when there is none.
    package static func uid(ofUser name: String) -> UInt32? {
        lookUp { getpwnam_r(name, &$0, $1, $2, &$3) }.map { $0.uid }
    }

    /// The home directory of the user with this uid, or nil when there is none.
    package static func homeDirectory(ofUID uid: UInt32) -> String? {
        guard let home = lookUp({ getpwuid_r(uid, &$0, $1, $2, &$3) })?.home, home.hasPrefix("/") else {
            return nil
        }
        return home
    }

    private static func lookUp(
        _ call: (inout passwd, UnsafeMutablePointer<CChar>, Int, inout UnsafeMutablePointer<passwd>?) -> Int32
    ) -> (uid: UInt32, home: String)? {
        var size = 1024
        while size <= 1 << 20 {
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>?
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
            defer { buffer.deallocate() }
            let status = call(&entry, buffer, size, &result)
            if status == ERANGE {
                size *= 4
                continue
            }
            guard status == 0, result != nil else { return nil }
            return (entry.pw_uid, entry.pw_dir.map { String(cString: $0) } ?? "")
        }
        return nil
    }
}
