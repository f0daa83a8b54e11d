import ArgumentParser
import Foundation
import PhotoLibrary
import Synchronization

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import files into the library.",
        discussion: """
            On a terminal, prints each file's outcome and a summary line; otherwise (or with --list) the summary line \
            alone, each file not imported on standard error. Exits with 1 when any file was unsupported or failed. A \
            folder is imported with -r: every file under it, hidden ones left out. --dry-run reads the files as an \
            import would and lists what it would do, importing nothing. Ctrl-C stops the import after the file \
            photolibd is on and says how many files were done (exit status 130).
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The files (and with -r, folders) to import.", valueName: "path"))
    var paths: [String]

    @Flag(name: [.short, .long], help: "Import the files in the folders given, and in their subfolders.")
    var recursive = false

    @Flag(
        help:
            "List what an import would do with each file (import it, or find it in the library already), and import nothing."
    )
    var dryRun = false

    @Option(help: "copy (the default): copy into the library; move: move into it; reference: index in place.")
    var mode: ImportMode?

    @Option(
        help: ArgumentHelp("Add the imported assets to this album (id, start of an id, or title).", valueName: "album"))
    var album: String?

    @Flag(help: "List each file's outcome even when standard output is not a terminal.")
    var list = false

    @Flag(help: "Print a line 'progress DONE/TOTAL' on standard output as files are done, for a script to follow.")
    var progress = false

    func run() async throws {
        let files = try ImportFiles.collect(paths, recursive: recursive)
        guard !files.isEmpty else { throw CommandFailure("no files to import in \(paths.joined(separator: ", "))") }
        let library = try await connection.connect()
        var albumId: String?
        if let album { albumId = try await References(library: library).collection(album, kinds: [.album]).id }
        let showsBar = !progress && isatty(STDERR_FILENO) == 1
        let interruption = ImportInterruption(total: files.count, dryRun: dryRun, showsBar: showsBar)
        let ctrlC = interruption.start()
        let result = try await library.importFiles(files, mode: mode, album: albumId, dryRun: dryRun) {
            [progress] done in
            interruption.processed = done.processed
            if progress {
                Console.print("progress \(done.processed)/\(done.total)")
            } else if showsBar {
                Console.printError("\r" + Self.bar(done) + " [\(done.processed)/\(done.total)]")
            }
        }
        if showsBar { Console.printError("\n") }
        ImportInterruption.stop(ctrlC)
        await library.close()
        let counts = Dictionary(grouping: result.files, by: \.status).mapValues(\.count)
        if dryRun || list || isatty(STDOUT_FILENO) == 1 {
            var table = TextTable(header: ["STATUS", "ASSET", "PATH"])
            for file in result.files {
                table.append([
                    Self.describe(file, dryRun: dryRun), file.assetId.map(Display.shortId) ?? "-",
                    file.path + (file.error.map { ": \($0)" } ?? ""),
                ])
            }
            table.print(empty: "no files")
        } else {
            for file in result.files where file.status == .unsupported || file.status == .failed {
                Console.printError("\(file.path): \(file.status.rawValue): \(file.error ?? "no reason given")\n")
            }
        }
        if dryRun {
            let imported = counts[.imported] ?? 0
            Console.print(
                "would import \(Display.count(imported, "file")); \(counts[.duplicate] ?? 0) in the "
                    + "library already, \(counts[.unsupported] ?? 0) unsupported, \(counts[.failed] ?? 0) failed")
            return
        }
        Console.print(
            "imported \(counts[.imported] ?? 0), duplicates \(counts[.duplicate] ?? 0), "
                + "unsupported \(counts[.unsupported] ?? 0), failed \(counts[.failed] ?? 0)")
        if counts[.unsupported] != nil || counts[.failed] != nil { throw ExitCode.failure }
    }

    /// A file's status as the table shows it: what a dry run would do, or what the import did.
    private static func describe(_ file: ImportedFile, dryRun: Bool) -> String {
        guard dryRun else { return file.status.rawValue }
        switch file.status {
        case .imported: return "would import"
        case .duplicate: return file.assetId == nil ? "duplicate" : "in library"
        case .unsupported, .failed: return file.status.rawValue
        }
    }

    /// A 30-character bar of how much of the import is done, e.g. `[#########.....................]`.
    static func bar(_ progress: ImportProgress) -> String {
        let width = 30
        let done = progress.total == 0 ? width : width * progress.processed / progress.total
        return "[" + String(repeating: "#", count: done) + String(repeating: ".", count: width - done) + "]"
    }
}

/// What Ctrl-C during an import says before the command ends with 130: how many files were done and how many
/// were not, the progress bar ended first. Leaving ends the call: photolibd finishes the file it is on, no more.
final class ImportInterruption: Sendable {
    private let total: Int
    private let dryRun: Bool
    private let showsBar: Bool
    private let done = Mutex(0)

    init(total: Int, dryRun: Bool, showsBar: Bool) {
        (self.total, self.dryRun, self.showsBar) = (total, dryRun, showsBar)
    }

    /// The files done so far.
    var processed: Int {
        get { done.withLock { $0 } }
        set { done.withLock { $0 = newValue } }
    }

    /// Takes Ctrl-C over until `stop` gets the source this returns.
    func start() -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT)
        source.setEventHandler { [self] in
            Console.printError((showsBar ? "\n" : "") + "interrupted: \(outcome)\n")
            Foundation.exit(130)
        }
        source.resume()
        return source
    }

    /// Lets Ctrl-C end the command as it would without an import under way.
    static func stop(_ source: any DispatchSourceSignal) {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }

    /// "82 of 200 files done, about 118 not imported": photolibd may be a file or two past its last progress reply,
    /// and finishes the file it is on.
    private var outcome: String {
        let processed = processed
        if dryRun { return "a dry run of \(Display.count(total, "file")), nothing imported" }
        return "\(processed) of \(Display.count(total, "file")) done, "
            + (processed < total ? "about \(total - processed) not imported" : "none left")
    }
}

/// The files an import names: each path given that is not a folder, and with `recursive` the files under each
/// folder given.
enum ImportFiles {
    /// Absolute paths, in the order given and, inside a folder, sorted; hidden files and folders are left out.
    static func collect(_ paths: [String], recursive: Bool) throws -> [String] {
        var files: [String] = []
        for path in paths {
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            var info = stat()
            guard stat(absolute, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                files.append(absolute)  // photolibd says what is wrong with a file it cannot import
                continue
            }
            guard recursive else { throw CommandFailure("\(path) is a folder: give -r to import the files in it") }
            files += try filesUnder(absolute)
        }
        return files
    }

    private static func filesUnder(_ folder: String) throws -> [String] {
        let root = URL(fileURLWithPath: folder, isDirectory: true)
        guard
            let walk = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles])
        else {
            throw CommandFailure("cannot read the folder \(folder)")
        }
        var files: [String] = []
        for case let url as URL in walk
        where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            files.append(url.standardizedFileURL.path)
        }
        return files.sorted()
    }
}
