// photolib-web, the gallery's server: its command is in GalleryCLI, shared with the package's one binary (photolibd).
import GalleryCLI

@main
enum PhotolibWebProgram {
    static func main() async { await PhotolibWebCommand.main() }
}
