import PredicateQuery
import Testing

/// Hostile predicates are refused quickly with a position, never crash, and never reach SQL as text.
struct PredicateLimitTests {
    private func error(of text: String) -> PredicateError? {
        do {
            _ = try QueryPredicate(parsing: text, schema: .assets)
            return nil
        } catch {
            return error
        }
    }

    @Test func tenThousandNestedParenthesesStopAtTheDepthLimit() {
        let text = String(repeating: "(", count: 10_000) + "pixelWidth > 1" + String(repeating: ")", count: 10_000)
        #expect(error(of: text) == PredicateError("nesting deeper than 64 levels", at: 64))
    }

    @Test func tenThousandNotsStopAtTheDepthLimit() {
        let text = String(repeating: "NOT ", count: 10_000) + "pixelWidth > 1"
        #expect(error(of: text) == PredicateError("nesting deeper than 64 levels", at: 256))
    }

    /// Every form that nests, 100,000 levels deep: each is refused with a position, none recurses past its bound.
    @Test(arguments: [
        (
            "parentheses",
            String(repeating: "(", count: 100_000) + "pixelWidth > 1" + String(repeating: ")", count: 100_000),
            PredicateError("nesting deeper than 64 levels", at: 64)
        ),
        (
            "NOT", String(repeating: "NOT ", count: 100_000) + "pixelWidth > 1",
            PredicateError("nesting deeper than 64 levels", at: 256)
        ),
        (
            "!", String(repeating: "!", count: 100_000) + "pixelWidth > 1",
            PredicateError("nesting deeper than 64 levels", at: 64)
        ),
        (
            "NOT and parentheses", String(repeating: "NOT (", count: 100_000) + "pixelWidth > 1",
            PredicateError("nesting deeper than 64 levels", at: 160)
        ),
        (
            "IN lists", "fileSize IN " + String(repeating: "{", count: 100_000),
            PredicateError("a list holds only values", at: 13)
        ),
        (
            "BETWEEN lists",
            "fileSize BETWEEN " + String(repeating: "{", count: 100_000) + "1, 2"
                + String(repeating: "}", count: 100_000),
            PredicateError("a list holds only values", at: 18)
        ),
        (
            "lists on the left", String(repeating: "{", count: 100_000) + "1} CONTAINS fileSize",
            PredicateError("a list holds only values", at: 1)
        ),
        (
            "masked keys", String(repeating: "(", count: 100_000) + "mediaSubtypes & 1) != 0",
            PredicateError("nesting deeper than 64 levels", at: 64)
        ),
        (
            "ANY", String(repeating: "ANY ", count: 100_000) + "keywords == 'cat'",
            PredicateError("expected a key or a value, found ANY", at: 4)
        ),
    ])
    func hundredThousandLevelsOfEveryNestingAreRefused(form: String, text: String, refusal: PredicateError) {
        #expect(error(of: text) == refusal, "\(form)")
    }

    @Test func nestingUpToTheLimitIsFine() throws {
        let text = String(repeating: "(", count: 64) + "pixelWidth > 1" + String(repeating: ")", count: 64)
        _ = try QueryPredicate(parsing: text, schema: .assets)
    }

    @Test func nulBytesAreRefusedWhereTheyAre() {
        #expect(error(of: "pixelWidth > 1\0 OR TRUEPREDICATE") == PredicateError("NUL character", at: 14))
        #expect(error(of: "originalFilename == 'a\0b'") == PredicateError("NUL character", at: 22))
        #expect(error(of: "originalFilename == 'a\\u0000b'") == PredicateError("malformed \\u escape", at: 22))
    }

    @Test func sqlTextIsJustAString() throws {
        let injection = "'); DROP TABLE asset; --"
        let predicate = try QueryPredicate(parsing: "originalFilename == \"\(injection)\"", schema: .assets)
        guard case .test(let test) = predicate, case .compare(.equal, .text(let value), _) = test.condition else {
            Issue.record("unexpected tree \(predicate)")
            return
        }
        #expect(value == injection)
    }

    @Test func hugeInListsStopAtTheListLimit() throws {
        let allowed = (0..<10_000).map(String.init).joined(separator: ",")
        _ = try QueryPredicate(parsing: "pixelWidth IN {\(allowed)}", schema: .assets)
        let tooMany = (0..<50_000).map(String.init).joined(separator: ",")
        #expect(error(of: "pixelWidth IN {\(tooMany)}")?.problem == "list longer than 10000 values")
    }

    @Test func tooManyValuesInAllAreRefused() {
        let list = (0..<9_000).map(String.init).joined(separator: ",")
        let text = (0..<3).map { _ in "pixelWidth IN {\(list)}" }.joined(separator: " OR ")
        #expect(error(of: text)?.problem == "more than 20000 values")
    }

    @Test func overlongTextIsRefusedBeforeParsing() {
        let text = "originalFilename == '" + String(repeating: "x", count: 1_000_000) + "'"
        #expect(error(of: text) == PredicateError("predicate longer than 1000000 characters", at: 1_000_000))
    }

    @Test func twentyThousandComparisonsAreRefusedNamingTheLimit() throws {
        func conjunction(_ count: Int) -> String { (0..<count).map { "pixelWidth > \($0)" }.joined(separator: " AND ") }
        _ = try QueryPredicate(parsing: conjunction(1_000), schema: .assets)
        #expect(error(of: conjunction(20_000)) == PredicateError("more than 1000 comparisons", at: 20_890))
        let constants = Array(repeating: "TRUEPREDICATE", count: 1_001).joined(separator: " OR ")
        #expect(error(of: constants)?.problem == "more than 1000 comparisons")
    }

    @Test(arguments: [("CONTAINS", 999_000), ("BEGINSWITH", 300_000), ("ENDSWITH", 1_001), ("LIKE", 5_000)])
    func overlongPatternsAreRefusedNamingTheLimit(_ operation: String, _ length: Int) {
        let text = "originalFilename \(operation) '" + String(repeating: "x", count: length) + "'"
        #expect(error(of: text) == PredicateError("pattern longer than 1000 characters", at: operation.count + 18))
    }

    @Test func aLikeOfOneHundredThousandStarsIsOneStar() throws {
        let text = "originalFilename LIKE '" + String(repeating: "*", count: 100_000) + "'"
        guard case .test(let test) = try QueryPredicate(parsing: text, schema: .assets),
            case .matches(let pattern, _) = test.condition
        else {
            Issue.record("not a pattern test")
            return
        }
        #expect(pattern.elements == [.anyRun])
        #expect(pattern.matches("IMG_0001.JPG"))
    }

    @Test func patternsUpToTheLimitAreFine() throws {
        let pattern = String(repeating: "?*", count: 500)
        _ = try QueryPredicate(parsing: "originalFilename LIKE '\(pattern)'", schema: .assets)
    }

    @Test func arbitraryBytesNeverCrashTheParser() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("()!&|=<>{}[],'\"\\ *?.-0123456789abcdexyzANDORNOTINmediaTypepixelWidth\u{e9}\u{1F600}")
        for _ in 0..<5_000 {
            let length = Int(generator.next() % 40)
            let text = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            _ = try? QueryPredicate(parsing: text, schema: .assets)
        }
    }
}
