import ArgumentParser
import PhotoLibrary

public struct PhotolibCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "photolib",
        abstract: "Browse and change the photolibd photo library.",
        version: PhotolibVersion.current,
        subcommands: [
            StatusCommand.self, AssetsCommand.self, PlacesCommand.self, DuplicatesCommand.self, InfoCommand.self,
            ImportCommand.self, AlbumsCommand.self, AlbumCommand.self,
            FavoriteCommand.self, HideCommand.self, UnhideCommand.self, SetDateCommand.self, SetLocationCommand.self,
            RateCommand.self, TagCommand.self, TitleCommand.self, CaptionCommand.self,
            WatchCommand.self, SourcesCommand.self, FolderCommand.self, SmartCommand.self,
            TrashCommand.self, RestoreCommand.self, EditCommand.self, RevertCommand.self,
            ThumbnailCommand.self, ExportCommand.self, OpenCommand.self, GalleryCommand.self,
        ]
    )

    @OptionGroup var connection: ConnectionOptions

    public init() {}
}

/// The options every command takes to reach the daemon.
struct ConnectionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The daemon's socket (default: $PHOTOLIBD_SOCKET, else the config file's socket, else the standard location).",
            valueName: "path"))
    var socket: String?

    @Option(
        help: ArgumentHelp("How long to wait for the daemon's first answer before giving up.", valueName: "seconds"))
    var timeout: Int = 10

    /// Connects to the daemon, which must answer within the time-out.
    func connect() async throws -> PhotoLibrary {
        try await PhotoLibrary.connect(socketPath: socket, answerWithin: .seconds(timeout))
    }
}

extension MediaType: ExpressibleByArgument {}

extension ImportMode: ExpressibleByArgument {}
