import Testing

@testable import PhotolibConfig

/// A configuration nested 100,000 deep, in each way TOML nests, is refused with a syntax error naming where,
/// instead of exhausting the stack of the parser or of the destruction of what it built.
@Suite struct DeepNestingTests {
    static let depth = 100_000

    static let texts: [(kind: String, text: String)] = [
        ("arrays", "library = " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)),
        (
            "inline tables",
            "library = " + String(repeating: "{a = ", count: depth) + "1" + String(repeating: "}", count: depth)
        ),
        (
            "arrays of inline tables",
            "library = " + String(repeating: "[{a = ", count: depth) + "1"
                + String(repeating: "}]", count: depth)
        ),
        ("a dotted key", "library" + String(repeating: ".a", count: depth) + " = 1"),
        ("a dotted key in an inline table", "library = {a" + String(repeating: ".a", count: depth) + " = 1}"),
        ("a table header", "[trash" + String(repeating: ".a", count: depth) + "]"),
        ("an array-of-tables header", "[[source" + String(repeating: ".a", count: depth) + "]]"),
    ]

    @Test(arguments: texts.map(\.kind))
    func nestingDeeperThanTheLimitIsASyntaxError(kind: String) throws {
        let text = Self.texts.first { $0.kind == kind }!.text
        let error = #expect(throws: ConfigurationError.self) {
            _ = try ConfigurationFile(text: text, absolutePath: "/etc/photolibd.conf", home: "/root").settings()
        }
        guard case .syntaxError(_, let line, _, let reason) = error else {
            Issue.record("\(kind): \(String(describing: error))")
            return
        }
        #expect(line == 1)
        #expect(reason.contains("nest"), "\(kind): \(reason)")
    }

    @Test func nestingUpToTheLimitIsParsed() throws {
        let limit = TOMLKeyCheck.maximumDepth
        let arrays = "library = " + String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        let dotted = "trash" + String(repeating: ".a", count: limit - 1) + " = 1"
        for text in [arrays, dotted] {
            let error = #expect(throws: ConfigurationError.self) {
                _ = try ConfigurationFile(text: text, absolutePath: "/etc/photolibd.conf", home: "/root").settings()
            }
            if case .syntaxError = error { Issue.record("\(text.prefix(20)): \(String(describing: error))") }
        }
    }
}
