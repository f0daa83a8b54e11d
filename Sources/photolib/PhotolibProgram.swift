// photolib, the command-line client: its commands are in PhotolibCLI, shared with the package's one binary (photolibd).
import PhotolibCLI

@main
enum PhotolibProgram {
    static func main() async { await PhotolibCommand.main() }
}
