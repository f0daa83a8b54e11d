import PhotoModel

/// A recursive-descent parser of NSPredicate format that checks keys and literals against a schema as it goes.
///
/// Grammar (reserved words are case-insensitive):
/// ```
/// predicate  := and (("OR" | "||") and)*
/// and        := unary (("AND" | "&&") unary)*
/// unary      := ("NOT" | "!") unary | "(" predicate ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
/// comparison := ("ANY" | "SOME" | "NONE")? operand operator options? operand
/// operand    := key | key "&" integer | "(" key "&" integer ")" | literal | "{" literal ("," literal)* "}"
/// ```
struct PredicateParser {
    let schema: PredicateSchema
    let tokens: [PredicateToken]
    var index = 0
    private var depth = 0
    var valueCount = 0
    var comparisonCount = 0

    /// Words that are never keys.
    private static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "TRUE", "FALSE",
        "YES", "NO", "NIL", "NULL", "TRUEPREDICATE", "FALSEPREDICATE", "ANY", "ALL", "SOME", "NONE", "SELF", "SUBQUERY",
        "FUNCTION",
    ]

    init(text: String, schema: PredicateSchema) throws(PredicateError) {
        var lexer = try PredicateLexer(text: text)
        tokens = try lexer.tokenize()
        self.schema = schema
    }

    /// Parses the whole text as one predicate.
    mutating func parsePredicate() throws(PredicateError) -> QueryPredicate {
        guard current.kind != .end else { throw PredicateError("empty predicate", at: current.position) }
        let predicate = try parseOr()
        guard current.kind == .end else { throw unexpected() }
        return predicate
    }

    // MARK: - Logic

    private mutating func parseOr() throws(PredicateError) -> QueryPredicate {
        var terms = [try parseAnd()]
        while accept(word: "OR") || accept(.or) { terms.append(try parseAnd()) }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func parseAnd() throws(PredicateError) -> QueryPredicate {
        var terms = [try parseUnary()]
        while accept(word: "AND") || accept(.and) { terms.append(try parseUnary()) }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseUnary() throws(PredicateError) -> QueryPredicate {
        let start = current.position
        if accept(word: "NOT") || accept(.not) {
            try enterNesting(at: start)
            defer { depth -= 1 }
            return .not(try parseUnary())
        }
        if current.kind == .symbol(.openParenthesis), !startsMaskedKey {
            advance()
            try enterNesting(at: start)
            defer { depth -= 1 }
            let inner = try parseOr()
            guard accept(.closeParenthesis) else { throw unexpected(expecting: "')'") }
            return inner
        }
        try countComparison(at: start)
        if accept(word: "TRUEPREDICATE") { return .constant(true) }
        if accept(word: "FALSEPREDICATE") { return .constant(false) }
        return try parseComparison()
    }

    private mutating func enterNesting(at position: Int) throws(PredicateError) {
        depth += 1
        guard depth <= PredicateLimits.maximumDepth else {
            throw PredicateError("nesting deeper than \(PredicateLimits.maximumDepth) levels", at: position)
        }
    }

    // MARK: - Comparisons

    enum Operand {
        case key(PredicateKey)
        case maskedKey(PredicateKey, mask: Int64)
        case literal(Literal)
        case list([(literal: Literal, position: Int)])
    }

    enum Literal {
        case integer(Int64)
        case real(Double)
        case string(String)
        case boolean(Bool)
        case null
    }

    enum Operator {
        case compare(ComparisonOperator)
        case within
        case between
        case beginsWith, endsWith, contains, like

        var name: String {
            switch self {
            case .compare(let comparison): comparison.rawValue
            case .within: "IN"
            case .between: "BETWEEN"
            case .beginsWith: "BEGINSWITH"
            case .endsWith: "ENDSWITH"
            case .contains: "CONTAINS"
            case .like: "LIKE"
            }
        }
    }

    private mutating func parseComparison() throws(PredicateError) -> QueryPredicate {
        let aggregatePosition = current.position
        var aggregate: String?
        for word in ["ANY", "SOME", "NONE"] where accept(word: word) { aggregate = word }
        if isAt(word: "ALL") {
            throw PredicateError("aggregate operator ALL is not supported; use NOT (ANY …)", at: current.position)
        }
        let leftPosition = current.position
        let left = try parseOperand()
        let operatorPosition = current.position
        let comparison = try parseOperator()
        let optionsPosition = current.position
        let options = try parseOptions()
        let rightPosition = current.position
        let right = try parseOperand()
        if let aggregate {
            guard case .key(let key) = left, key.type == .textList else {
                throw PredicateError(
                    "\(aggregate) applies to a key of many values, such as keywords", at: aggregatePosition)
            }
            let element = PredicateKey(key.name, .text)
            let test = try self.test(
                .key(element), key: element, comparison, options, right, operatorAt: operatorPosition,
                optionsAt: optionsPosition, valueAt: rightPosition)
            guard case .test(let elementTest) = test else {
                throw PredicateError("compare each of \(key.name) with text", at: rightPosition)
            }
            let any = QueryPredicate.test(KeyTest(key: key, condition: .anyElement(elementTest.condition)))
            return aggregate == "NONE" ? .not(any) : any
        }
        switch (left, comparison, right) {
        case (.key(let key), .contains, .literal(.string(let text))) where key.type == .textList,
            (.literal(.string(let text)), .within, .key(let key)) where key.type == .textList:
            try countValues(1, at: rightPosition)
            let value = PredicateValue.text(text).folded(options)
            return .test(KeyTest(key: key, condition: .anyElement(.compare(.equal, value, options))))
        case (.key(let key), _, _) where key.type == .textList, (_, _, .key(let key)) where key.type == .textList:
            throw PredicateError(
                "\(key.name) holds many values: use ANY \(key.name) == 'x' or 'x' IN \(key.name)",
                at: leftPosition)
        default:
            break
        }
        switch (left, right) {
        case (.key, .key), (.key, .maskedKey), (.maskedKey, .key), (.maskedKey, .maskedKey):
            throw PredicateError("comparing two keys is not supported", at: rightPosition)
        case (.literal, .literal), (.literal, .list), (.list, .literal), (.list, .list):
            throw PredicateError("a comparison needs a key", at: leftPosition)
        case (.key(let key), _), (.maskedKey(let key, _), _):
            return try test(
                left, key: key, comparison, options, right, operatorAt: operatorPosition,
                optionsAt: optionsPosition, valueAt: rightPosition)
        case (_, .key(let key)), (_, .maskedKey(let key, _)):
            let swapped: Operator
            switch comparison {
            case .compare(let comparison): swapped = .compare(comparison.swapped)
            case .within where key.type == .mediaSubtypes || key.type == .text: swapped = .contains
            default:
                throw PredicateError("put the key on the left of \(comparison.name)", at: leftPosition)
            }
            return try test(
                right, key: key, swapped, options, left, operatorAt: operatorPosition,
                optionsAt: optionsPosition, valueAt: leftPosition)
        }
    }

    private mutating func parseOperand() throws(PredicateError) -> Operand {
        let token = current
        switch token.kind {
        case .word(let word):
            advance()
            switch word.uppercased() {
            case "TRUE", "YES": return .literal(.boolean(true))
            case "FALSE", "NO": return .literal(.boolean(false))
            case "NIL", "NULL": return .literal(.null)
            case let reserved where Self.reservedWords.contains(reserved):
                throw PredicateError("expected a key or a value, found \(word)", at: token.position)
            default:
                let key = try lookUp(word, at: token.position)
                guard accept(.ampersand) else { return .key(key) }
                return .maskedKey(key, mask: try parseMask(for: key, at: token.position))
            }
        case .symbol(.openParenthesis) where startsMaskedKey:
            advance()
            guard case .word(let word) = current.kind else { throw unexpected(expecting: "a key") }
            let key = try lookUp(word, at: current.position)
            advance()
            advance()
            let mask = try parseMask(for: key, at: token.position)
            guard accept(.closeParenthesis) else { throw unexpected(expecting: "')'") }
            return .maskedKey(key, mask: mask)
        case .symbol(.openBrace):
            advance()
            var elements: [(literal: Literal, position: Int)] = []
            if accept(.closeBrace) { return .list(elements) }
            repeat {
                guard elements.count < PredicateLimits.maximumListCount else {
                    throw PredicateError(
                        "list longer than \(PredicateLimits.maximumListCount) values", at: current.position)
                }
                let position = current.position
                // Only a value may follow, so a nested list is refused here rather than parsed: parsing it would
                // recurse once per `{` of a hostile predicate, past any stack.
                guard current.kind != .symbol(.openBrace), case .literal(let literal) = try parseOperand() else {
                    throw PredicateError("a list holds only values", at: position)
                }
                elements.append((literal, position))
            } while accept(.comma)
            guard accept(.closeBrace) else { throw unexpected(expecting: "',' or '}'") }
            return .list(elements)
        case .integer(let value):
            advance()
            return .literal(.integer(value))
        case .real(let value):
            advance()
            return .literal(.real(value))
        case .string(let value):
            advance()
            return .literal(.string(value))
        case .symbol, .end:
            throw unexpected(expecting: "a key or a value")
        }
    }

    private mutating func parseMask(for key: PredicateKey, at position: Int) throws(PredicateError) -> Int64 {
        guard key.type == .mediaSubtypes else {
            throw PredicateError("'&' applies only to mediaSubtypes", at: position)
        }
        guard case .integer(let mask) = current.kind else { throw unexpected(expecting: "an integer mask") }
        advance()
        return mask
    }

    private mutating func parseOperator() throws(PredicateError) -> Operator {
        let token = current
        if case .symbol(let symbol) = token.kind {
            let comparisons: [PredicateToken.Symbol: ComparisonOperator] = [
                .equal: .equal, .notEqual: .notEqual, .less: .less, .lessOrEqual: .lessOrEqual, .greater: .greater,
                .greaterOrEqual: .greaterOrEqual,
            ]
            if let comparison = comparisons[symbol] {
                advance()
                return .compare(comparison)
            }
        }
        if case .word(let word) = token.kind {
            let operators: [String: Operator] = [
                "IN": .within, "BETWEEN": .between, "BEGINSWITH": .beginsWith, "ENDSWITH": .endsWith,
                "CONTAINS": .contains, "LIKE": .like,
            ]
            if let found = operators[word.uppercased()] {
                advance()
                return found
            }
            if word.uppercased() == "MATCHES" {
                throw PredicateError("MATCHES (regular expressions) is not supported; use LIKE", at: token.position)
            }
        }
        throw unexpected(expecting: "an operator")
    }

    /// Parses `[c]`, `[d]` or `[cd]` after an operator.
    private mutating func parseOptions() throws(PredicateError) -> TextOptions {
        guard accept(.openBracket) else { return [] }
        guard case .word(let letters) = current.kind else { throw unexpected(expecting: "c, d or cd") }
        var options: TextOptions = []
        for letter in letters {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            default: throw PredicateError("unknown option '\(letter)' (use c, d or cd)", at: current.position)
            }
        }
        advance()
        guard accept(.closeBracket) else { throw unexpected(expecting: "']'") }
        return options
    }
}
