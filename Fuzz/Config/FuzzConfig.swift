import FuzzSupport

@testable import PhotolibConfig

/// Every way TOML nests: arrays, inline tables and both in values; dotted keys, table headers and arrays of tables.
let configNesting = DeepNesting([
    .init("[", "]", lead: "library = "), .init("{a = ", "}", lead: "library = "),
    .init("[{a = ", "}]", lead: "library = "),
    .init("a.", ""), .init("a.", "", lead: "["), .init("a.", "", lead: "[["), .init("a.", "", lead: "library = {"),
    .init("[", "]", lead: "[[source]]\npath = \"/srv\"\nmode = "),
])

func loadConfig(_ input: UnsafeRawBufferPointer) {
    configNesting.withText(of: input, loadConfigText)
}

func loadConfigText(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input, as: UTF8.self)
    _ = try? ConfigurationFile(text: text, absolutePath: "/etc/photolibd/photolibd.conf", home: "/home/fuzz").settings()
}

@main
struct FuzzConfig {
    /// Feeds each input as the text of photolibd.conf, parsed and checked as the daemon loads it; an input in
    /// deep-nesting mode stands for TOML nested as deep as it asks.
    static func main() throws {
        try FuzzTarget.run(loadConfig)
    }
}
