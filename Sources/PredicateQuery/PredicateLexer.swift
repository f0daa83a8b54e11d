/// One lexical token of a predicate and the scalar position it starts at.
struct PredicateToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A key or a reserved word (reserved words are matched case-insensitively by the parser).
        case word(String)
        case integer(Int64)
        case real(Double)
        case string(String)
        case symbol(Symbol)
        case end
    }

    enum Symbol: String, Sendable, Hashable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case and = "&&", or = "||", not = "!", ampersand = "&"
        case openParenthesis = "(", closeParenthesis = ")", openBrace = "{", closeBrace = "}", comma = ","
        case openBracket = "[", closeBracket = "]"
    }

    var kind: Kind
    var position: Int
}

/// Splits predicate text into tokens.
struct PredicateLexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(text: String) throws(PredicateError) {
        scalars = Array(text.unicodeScalars)
        guard scalars.count <= PredicateLimits.maximumLength else {
            throw PredicateError(
                "predicate longer than \(PredicateLimits.maximumLength) characters",
                at: PredicateLimits.maximumLength)
        }
        if let nul = scalars.firstIndex(of: "\0") { throw PredicateError("NUL character", at: nul) }
    }

    /// Every token of the text, ending with `.end`.
    mutating func tokenize() throws(PredicateError) -> [PredicateToken] {
        var tokens: [PredicateToken] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func next() throws(PredicateError) -> PredicateToken {
        while let scalar = current, scalar.properties.isWhitespace { index += 1 }
        let start = index
        guard let scalar = current else { return PredicateToken(kind: .end, position: start) }
        if scalar.isWordStart {
            while let part = current, part.isWordPart { index += 1 }
            return PredicateToken(
                kind: .word(String(String.UnicodeScalarView(scalars[start..<index]))), position: start)
        }
        if scalar.isDigit || (scalar == "-" && peek(1)?.isDigit == true) { return try number() }
        if scalar == "'" || scalar == "\"" {
            return PredicateToken(kind: .string(try string(quote: scalar)), position: start)
        }
        guard let symbol = symbol() else { throw PredicateError("unexpected character '\(scalar)'", at: start) }
        return PredicateToken(kind: .symbol(symbol), position: start)
    }

    /// Operators and punctuation, longest spelling first; made once, not for every symbol read (a list of 100,000
    /// braces took 10 s to read under AddressSanitizer when each read built this table).
    private static let spellings: [([Unicode.Scalar], PredicateToken.Symbol)] = [
        ("==", .equal), ("!=", .notEqual), ("<>", .notEqual), ("<=", .lessOrEqual), ("=<", .lessOrEqual),
        (">=", .greaterOrEqual), ("=>", .greaterOrEqual), ("&&", .and), ("||", .or),
        ("=", .equal), ("<", .less), (">", .greater), ("!", .not), ("&", .ampersand), ("(", .openParenthesis),
        (")", .closeParenthesis), ("{", .openBrace), ("}", .closeBrace), (",", .comma), ("[", .openBracket),
        ("]", .closeBracket),
    ].map { (Array($0.unicodeScalars), $1) }

    /// Reads an operator or punctuation, longest spelling first.
    private mutating func symbol() -> PredicateToken.Symbol? {
        for (spelling, symbol) in Self.spellings where spelling.indices.allSatisfy({ peek($0) == spelling[$0] }) {
            index += spelling.count
            return symbol
        }
        return nil
    }

    /// Reads a decimal number (integer, or real with a fraction or exponent, optionally negative) or a `0x`
    /// hexadecimal integer.
    private mutating func number() throws(PredicateError) -> PredicateToken {
        let start = index
        if current == "-" { index += 1 }
        if index == start, current == "0", peek(1) == "x" || peek(1) == "X" {
            index += 2
            let digitsStart = index
            while let scalar = current, scalar.properties.isASCIIHexDigit { index += 1 }
            let digits = String(String.UnicodeScalarView(scalars[digitsStart..<index]))
            guard !digits.isEmpty, let value = Int64(digits, radix: 16) else {
                throw PredicateError("malformed hexadecimal number", at: start)
            }
            return PredicateToken(kind: .integer(value), position: start)
        }
        var isReal = false
        while let scalar = current, scalar.isDigit { index += 1 }
        if current == ".", peek(1)?.isDigit == true {
            isReal = true
            index += 1
            while let scalar = current, scalar.isDigit { index += 1 }
        }
        if current == "e" || current == "E" {
            let signOffset = peek(1) == "+" || peek(1) == "-" ? 2 : 1
            if peek(signOffset)?.isDigit == true {
                isReal = true
                index += signOffset
                while let scalar = current, scalar.isDigit { index += 1 }
            }
        }
        if let scalar = current, scalar.isWordPart {
            throw PredicateError("malformed number", at: start)
        }
        let text = String(String.UnicodeScalarView(scalars[start..<index]))
        if !isReal, let value = Int64(text) { return PredicateToken(kind: .integer(value), position: start) }
        guard let value = Double(text), value.isFinite else { throw PredicateError("number out of range", at: start) }
        return PredicateToken(kind: .real(value), position: start)
    }

    /// Reads a quoted string with backslash escapes; `\*` and `\?` are kept for LIKE patterns.
    private mutating func string(quote: Unicode.Scalar) throws(PredicateError) -> String {
        let start = index
        index += 1
        var result = String.UnicodeScalarView()
        while true {
            guard let scalar = current else { throw PredicateError("unterminated string", at: start) }
            index += 1
            if scalar == quote { return String(result) }
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            guard let escaped = current else { throw PredicateError("unterminated string", at: start) }
            let escapePosition = index - 1
            index += 1
            switch escaped {
            case "\\", "'", "\"": result.append(escaped)
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "*", "?": result.append(contentsOf: ["\\", escaped])
            case "u":
                let digits = String(String.UnicodeScalarView(scalars[index..<min(index + 4, scalars.count)]))
                guard digits.unicodeScalars.count == 4, let code = UInt32(digits, radix: 16),
                    let decoded = Unicode.Scalar(code), decoded != "\0"
                else { throw PredicateError("malformed \\u escape", at: escapePosition) }
                index += 4
                result.append(decoded)
            default:
                throw PredicateError("unknown escape '\\\(escaped)'", at: escapePosition)
            }
        }
    }
}

private extension Unicode.Scalar {
    var isDigit: Bool { ("0"..."9").contains(self) }
    var isWordStart: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) || self == "_" }
    var isWordPart: Bool { isWordStart || isDigit }
}
