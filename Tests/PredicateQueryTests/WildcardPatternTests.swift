import PredicateQuery
import Testing

struct WildcardPatternTests {
    @Test(arguments: [
        ("IMG_*.JPG", "IMG_0001.JPG", true),
        ("IMG_*.JPG", "IMG_0001.JPEG", false),
        ("IMG_????.*", "IMG_0001.HEIC", true),
        ("IMG_????.*", "IMG_001.HEIC", false),
        ("*", "", true),
        ("?", "", false),
        ("a*b*c", "aXXbYYbZZc", true),
        ("a*b*c", "aXXbYYbZZ", false),
        ("\\*star", "*star", true),
        ("\\*star", "Xstar", false),
        ("caf\u{e9}", "caf\u{e9}", true),
        ("*\u{1F600}", "smile \u{1F600}", true),
    ])
    func likePatternsMatchWholeStrings(_ pattern: String, _ text: String, _ expected: Bool) {
        #expect(WildcardPattern(like: pattern).matches(text) == expected)
    }

    @Test func globKeepsLiteralWildcardsLiteral() {
        #expect(WildcardPattern(like: "a\\*b?[c]*").glob == "a[*]b?[[]c]*")
        #expect(WildcardPattern.containing("50%_off").glob == "*50%_off*")
        #expect(WildcardPattern.beginning(with: "x?").glob == "x[?]*")
    }

    @Test func foldingAppliesToLiteralsOnly() {
        let pattern = WildcardPattern(like: "CR\u{c8}ME*").folded([.caseInsensitive, .diacriticInsensitive])
        #expect(pattern.glob == "creme*")
        #expect(TextFolding.fold("Stra\u{df}e \u{c9}T\u{c9}", [.caseInsensitive, .diacriticInsensitive]) == "strasse ete")
        #expect(TextFolding.fold("\u{c9}t\u{e9}", .diacriticInsensitive) == "Ete")
        #expect(TextFolding.fold("\u{c9}t\u{e9}", .caseInsensitive) == "\u{e9}t\u{e9}")
    }
}
