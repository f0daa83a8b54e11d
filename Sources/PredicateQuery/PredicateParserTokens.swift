import PhotoModel

/// Tokens: the parser's position in the predicate's tokens, and the error at an unexpected one.
extension PredicateParser {
    var current: PredicateToken { tokens[index] }

    mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    /// Whether the tokens ahead are `( key &`, a masked key in parentheses rather than a nested predicate.
    var startsMaskedKey: Bool {
        guard index + 2 < tokens.count, case .word = tokens[index + 1].kind else { return false }
        return tokens[index + 2].kind == .symbol(.ampersand)
    }

    func isAt(word: String) -> Bool {
        guard case .word(let found) = current.kind else { return false }
        return found.uppercased() == word
    }

    mutating func accept(word: String) -> Bool {
        guard isAt(word: word) else { return false }
        advance()
        return true
    }

    mutating func accept(_ symbol: PredicateToken.Symbol) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        advance()
        return true
    }

    func unexpected(expecting expected: String? = nil) -> PredicateError {
        let found: String
        switch current.kind {
        case .end: found = "end of predicate"
        case .word(let word): found = "'\(word)'"
        case .integer(let value): found = "\(value)"
        case .real(let value): found = "\(value)"
        case .string(let value): found = "string '\(value.prefix(40))'"
        case .symbol(let symbol): found = "'\(symbol.rawValue)'"
        }
        return PredicateError("unexpected \(found)" + (expected.map { ", expected \($0)" } ?? ""), at: current.position)
    }
}
