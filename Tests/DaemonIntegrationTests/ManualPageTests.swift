import Foundation
import TestSupport
import Testing

/// The man pages the package installs, written by scripts/generate-docs from the programs this test was built with:
/// clean for groff, with what a reader looks for and without what ArgumentParser's own help adds.
@Suite(.serialized)
struct ManualPageTests {
    static let pages = ["photolibd.8", "photolib.1", "photolib-web.1"]

    /// The pages' source and their text as `man` shows it, once for every test.
    static let generated: Result<[String: (source: String, text: String, warnings: String)], any Error> = Result {
        let output = try TemporaryDirectory(prefix: "photolibd-docs")
        try runTool(
            CheckoutScriptTests.checkout + "/scripts/generate-docs", [DaemonProcess.productsDirectory, output.path])
        var found: [String: (String, String, String)] = [:]
        for page in pages {
            let source = try String(contentsOfFile: output.file(page), encoding: .utf8)
            let render = try runTool(
                "/usr/bin/groff", ["-mandoc", "-ww", "-Tutf8", "-P-c", "-P-b", "-P-u", output.file(page)],
                checked: false)
            found[page] = (source, render.output, render.errors)
        }
        return found
    }

    static func page(_ name: String) throws -> (source: String, text: String, warnings: String) {
        try #require(try generated.get()[name])
    }

    @Test(arguments: ManualPageTests.pages)
    func eachPageRendersWithoutWarningsAndHasTheSectionsAReaderLooksFor(_ name: String) throws {
        let page = try Self.page(name)
        #expect(page.warnings.isEmpty, "\(page.warnings)")
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "ENVIRONMENT", "FILES", "EXAMPLES", "SEE ALSO"] {
            #expect(page.source.contains(".Sh \(section)\n"), "\(name) has no \(section)")
        }
        let synopsis = try #require(page.text.range(of: "SYNOPSIS"))
        let description = try #require(page.text.range(of: "DESCRIPTION"))
        let usage = page.text[synopsis.upperBound..<description.lowerBound]
        #expect(!usage.contains("subcommand") && !usage.contains("help"), "\(usage)")
        #expect(!page.text.contains("SUBCOMMANDS") && !page.text.contains("Show subcommand help"), "a stray help block")
    }

    @Test func theDaemonsSynopsisIsWhatAPersonTypes() throws {
        let page = try Self.page("photolibd.8")
        #expect(
            page.text.contains("photolibd [--config file] [--system] [--log-level level]"), "\(page.text.prefix(600))")
        #expect(page.source.contains("it is socket-activated: photolibd.socket"))
    }

    @Test func photolibSaysEachCommonOptionOnceAndEachCommandWithItsWords() throws {
        let page = try Self.page("photolib.1")
        #expect(
            page.source.components(separatedBy: "The daemon's socket (default:").count == 2, "--socket described once")
        #expect(page.source.components(separatedBy: "Show the help").count == 2, "--help described once")
        for command in ["photolib import", "photolib assets", "photolib album create", "photolib gallery"] {
            #expect(page.text.contains(command), "\(command) is not in photolib(1)")
        }
        #expect(!page.text.contains("photolib help"))
        #expect(page.source.split(separator: "\n").count < 900, "\(page.source.split(separator: "\n").count) lines")
    }
}
