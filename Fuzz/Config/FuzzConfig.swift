import FuzzSupport
@testable import PhotolibConfig

func loadConfig(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input, as: UTF8.self)
    _ = try? ConfigurationFile(text: text, absolutePath: "/etc/photolibd/photolibd.conf", home: "/home/fuzz").settings()
}

@main
struct FuzzConfig {
    /// Feeds each input as the text of photolibd.conf, parsed and checked as the daemon loads it.
    static func main() throws {
        try FuzzTarget.run(loadConfig)
    }
}
