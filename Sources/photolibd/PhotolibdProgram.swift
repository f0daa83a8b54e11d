// photolibd, and in the Debian package every program of the project: the package installs this one binary and links
// photolib, photolib-web and photolibd-raw to it, so the Swift runtime it carries (about 50 MB) is installed once.
// It runs the program it is called as; any other name runs the daemon.
import DaemonCLI
import GalleryCLI
import PhotolibCLI
import RawHelper

@main
enum PhotolibdProgram {
    static func main() async {
        switch CommandLine.arguments.first?.split(separator: "/").last {
        case "photolib": await PhotolibCommand.main()
        case "photolib-web": await PhotolibWebCommand.main()
        case "photolibd-raw": RawHelper.main()
        default: await PhotolibdCommand.main()
        }
    }
}
