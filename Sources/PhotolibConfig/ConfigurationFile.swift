import PhotolibLocations
import TOMLKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a configuration file sets, with paths resolved; nil means the file leaves it to the default.
struct FileSettings: Hashable {
    var library: String?
    var cache: String?
    var socket: String?
    var trashRetentionDays: Int?
    var historyRetentionDays: Int?
    var access: AccessPolicy?
    var sources: [SourceConfiguration]?
    var images = ImageSettings()
    var metadataWriteBack: MetadataWriteBack?
    /// `[duplicates] similarity_threshold`, in bits.
    var duplicateThreshold: Int?
}

/// What the `[images]` table sets; nil means the default.
struct ImageSettings: Hashable {
    /// Where the freedesktop.org thumbnails go.
    enum FreedesktopThumbnails: Hashable {
        /// `$XDG_CACHE_HOME/thumbnails`, where file managers look.
        case standardDirectory
        case directory(String)
    }

    var cacheByteLimit: Int?
    var maximumPixels: Int?
    /// Nil when none are written.
    var freedesktopThumbnails: FreedesktopThumbnails?
}

/// A parsed TOML configuration file and the checked reading of its keys.
struct ConfigurationFile {
    static let topLevelKeys = [
        "library", "cache", "socket", "metadata_write_back", "trash", "history", "access", "source", "images",
        "duplicates",
    ]
    static let imagesKeys = ["cache_limit_mb", "max_pixels", "freedesktop_thumbnails"]
    static let retentionKeys = ["retention_days"]
    static let duplicatesKeys = ["similarity_threshold"]
    static let accessKeys = ["users", "read_only_users", "add_only_users"]
    static let sourceKeys = ["path", "mode", "recursive"]

    /// The file's absolute path.
    let path: String
    private let root: TOMLTable
    let locator: KeyLocator
    let directory: String
    let home: String

    /// Reads and parses the file at `path`, which may be relative to the current directory.
    init(path: String, home: String) throws(ConfigurationError) {
        let absolute = Path.resolve(path, relativeTo: Path.currentDirectory, home: home)
        try self.init(text: try Self.readText(absolute), absolutePath: absolute, home: home)
    }

    /// Parses `text`, the contents of the file at `absolute`.
    init(text: String, absolutePath absolute: String, home: String) throws(ConfigurationError) {
        if let mistake = TOMLKeyCheck.firstMistake(in: text) {
            throw .syntaxError(file: absolute, line: mistake.line, column: mistake.column, reason: mistake.reason)
        }
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .syntaxError(
                file: absolute, line: error.source.begin.line, column: error.source.begin.column,
                reason: error.description)
        } catch {
            throw .syntaxError(file: absolute, line: 1, column: 1, reason: "\(error)")
        }
        self.path = absolute
        self.locator = KeyLocator(text: text)
        self.directory = Path.directory(of: absolute)
        self.home = home
    }

    /// Every setting in the file, checked: unknown keys, wrong types and bad values throw.
    func settings() throws(ConfigurationError) -> FileSettings {
        try checkKeys(of: root, in: .root, known: Self.topLevelKeys)
        var settings = FileSettings()
        settings.library = try path(at: SettingKey(.root, "library"), in: root)
        settings.cache = try path(at: SettingKey(.root, "cache"), in: root)
        settings.socket = try path(at: SettingKey(.root, "socket"), in: root)
        settings.trashRetentionDays = try retentionDays(inTable: "trash")
        settings.historyRetentionDays = try retentionDays(inTable: "history")
        settings.access = try accessPolicy()
        settings.sources = try sources()
        settings.images = try imageSettings()
        settings.duplicateThreshold = try duplicateThreshold()
        let writeBackKey = SettingKey(.root, "metadata_write_back")
        if let name = try string(at: writeBackKey, in: root) {
            guard let writeBack = MetadataWriteBack(rawValue: name) else {
                throw invalidValue(at: writeBackKey, "is \"\(name)\"; use \"sidecar\" or \"off\"")
            }
            settings.metadataWriteBack = writeBack
        }
        return settings
    }

    // MARK: Sections

    private func retentionDays(inTable name: String) throws(ConfigurationError) -> Int? {
        guard let table = try table(at: SettingKey(.root, name), in: root) else { return nil }
        try checkKeys(of: table, in: .named(name), known: Self.retentionKeys)
        let key = SettingKey(.named(name), "retention_days")
        guard let days = try integer(at: key, in: table) else { return nil }
        guard days >= 0 else { throw invalidValue(at: key, "is \(days); it must be 0 or more days") }
        return days
    }

    private func duplicateThreshold() throws(ConfigurationError) -> Int? {
        guard let table = try table(at: SettingKey(.root, "duplicates"), in: root) else { return nil }
        try checkKeys(of: table, in: .named("duplicates"), known: Self.duplicatesKeys)
        let key = SettingKey(.named("duplicates"), "similarity_threshold")
        guard let bits = try integer(at: key, in: table) else { return nil }
        let allowed = DaemonConfiguration.duplicateThresholds
        guard allowed.contains(bits) else {
            throw invalidValue(at: key, "is \(bits); it must be \(allowed.lowerBound) to \(allowed.upperBound) bits")
        }
        return bits
    }

    private func imageSettings() throws(ConfigurationError) -> ImageSettings {
        guard let table = try table(at: SettingKey(.root, "images"), in: root) else { return ImageSettings() }
        try checkKeys(of: table, in: .named("images"), known: Self.imagesKeys)
        var settings = ImageSettings()
        let limitKey = SettingKey(.named("images"), "cache_limit_mb")
        if let megabytes = try integer(at: limitKey, in: table) {
            guard megabytes >= 1 else {
                throw invalidValue(at: limitKey, "is \(megabytes); it must be 1 or more megabytes")
            }
            settings.cacheByteLimit = min(megabytes, Int.max >> 20) << 20
        }
        let pixelsKey = SettingKey(.named("images"), "max_pixels")
        if let pixels = try integer(at: pixelsKey, in: table) {
            guard pixels > 0 else {
                throw invalidValue(at: pixelsKey, "is \(pixels); it must be 1 or more pixels")
            }
            settings.maximumPixels = pixels
        }
        let thumbnailsKey = SettingKey(.named("images"), "freedesktop_thumbnails")
        if let value = table[thumbnailsKey.key] {
            if let enabled = value.bool {
                settings.freedesktopThumbnails = enabled ? .standardDirectory : nil
            } else if let word = value.string, ["yes", "no", "true", "false", "on", "off"].contains(word.lowercased()) {
                throw invalidValue(
                    at: thumbnailsKey,
                    "is the text \"\(word)\"; write true or false without quotes, or a directory path")
            } else if value.string != nil, let directory = try path(at: thumbnailsKey, in: table) {
                settings.freedesktopThumbnails = .directory(directory)
            } else {
                throw wrongType(at: thumbnailsKey, expected: "a boolean or a directory path", found: value.type)
            }
        }
        return settings
    }

    private func accessPolicy() throws(ConfigurationError) -> AccessPolicy? {
        guard let table = try table(at: SettingKey(.root, "access"), in: root) else { return nil }
        try checkKeys(of: table, in: .named("access"), known: Self.accessKeys)
        let readWrite = try users(at: SettingKey(.named("access"), "users"), in: table)
        let readOnlyKey = SettingKey(.named("access"), "read_only_users")
        let readOnly = try users(at: readOnlyKey, in: table)
        if let both = readOnly.first(where: readWrite.contains) {
            throw invalidValue(
                at: readOnlyKey,
                "lists uid \(both), which `access.users` lists too; keep each user in one of the two lists")
        }
        let addOnlyKey = SettingKey(.named("access"), "add_only_users")
        let addOnly = try users(at: addOnlyKey, in: table)
        if let both = addOnly.first(where: { readWrite.contains($0) || readOnly.contains($0) }) {
            throw invalidValue(
                at: addOnlyKey,
                "lists uid \(both), which `access.\(readWrite.contains(both) ? "users" : "read_only_users")` lists too; "
                    + "keep each user in one list")
        }
        return AccessPolicy(readWriteUsers: readWrite, readOnlyUsers: readOnly, addOnlyUsers: addOnly)
    }

    private func users(at key: SettingKey, in table: TOMLTable) throws(ConfigurationError) -> [UInt32] {
        guard let value = table[key.key] else { return [] }
        guard let array = value.array else {
            throw wrongType(at: key, expected: "an array of user names or numeric uids", found: value.type)
        }
        var uids: [UInt32] = []
        for (index, element) in array.enumerated() {
            let elementKey = key.element(index)
            let uid: UInt32
            if let name = element.string {
                guard let resolved = UserDatabase.uid(ofUser: name) ?? UInt32(name) else {
                    throw .unknownUser(file: path, key: elementKey.dotted, line: locator.line(of: key), name: name)
                }
                uid = resolved
            } else if let number = element.int {
                guard let valid = UInt32(exactly: number), valid != UInt32.max else {
                    throw invalidValue(at: elementKey, "is \(number), which is not a valid uid")
                }
                uid = valid
            } else {
                throw wrongType(at: elementKey, expected: "a user name or a numeric uid", found: element.type)
            }
            if !uids.contains(uid) { uids.append(uid) }
        }
        return uids
    }

    private func sources() throws(ConfigurationError) -> [SourceConfiguration]? {
        let key = SettingKey(.root, "source")
        guard let value = root[key.key] else { return nil }
        guard let array = value.array else {
            throw wrongType(
                at: key, expected: "an array of tables (write each source as a [[source]] table)", found: value.type)
        }
        var sources: [SourceConfiguration] = []
        for (index, element) in array.enumerated() {
            guard let table = element.table else {
                throw wrongType(at: key.element(index), expected: "a table", found: element.type)
            }
            let source = try source(in: table, at: .element("source", index: index))
            if let earlier = sources.firstIndex(where: { $0.path == source.path }) {
                throw invalidValue(
                    at: SettingKey(.element("source", index: index), "path"),
                    "is \"\(source.path)\", which source[\(earlier)] already watches; list each folder once")
            }
            sources.append(source)
        }
        return sources
    }

    private func source(
        in table: TOMLTable, at section: SettingKey.Table
    ) throws(ConfigurationError) -> SourceConfiguration {
        try checkKeys(of: table, in: section, known: Self.sourceKeys)
        let pathKey = SettingKey(section, "path")
        guard let sourcePath = try path(at: pathKey, in: table) else {
            throw .missingKey(
                file: path, key: pathKey.dotted, line: locator.line(of: section),
                example: "path = \"/srv/photos/import\"")
        }
        let modeKey = SettingKey(section, "mode")
        let modes = SourceMode.allCases.map(\.rawValue).joined(separator: ", ")
        guard let modeName = try string(at: modeKey, in: table) else {
            throw .missingKey(
                file: path, key: modeKey.dotted, line: locator.line(of: section),
                example: "mode = \"copy\" (one of: \(modes))")
        }
        guard let mode = SourceMode(rawValue: modeName) else {
            throw invalidValue(at: modeKey, "is \"\(modeName)\"; use one of: \(modes)")
        }
        let recursive = try bool(at: SettingKey(section, "recursive"), in: table) ?? true
        return SourceConfiguration(path: sourcePath, mode: mode, recursive: recursive)
    }

    /// The file's contents as UTF-8 text.
    private static func readText(_ path: String) throws(ConfigurationError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .fileNotFound(file: path) }
            throw .unreadableFile(file: path, reason: String(cString: strerror(code)))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .unreadableFile(file: path, reason: String(cString: strerror(code)))
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .unreadableFile(file: path, reason: "the file is not UTF-8 text")
        }
        guard !text.contains("\0") else {
            throw .unreadableFile(file: path, reason: "the file contains a NUL byte")
        }
        return text
    }
}
