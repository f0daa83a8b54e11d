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
    private let schema: PredicateSchema
    private let tokens: [PredicateToken]
    private var index = 0
    private var depth = 0
    private var valueCount = 0
    private var comparisonCount = 0

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

    private enum Operand {
        case key(PredicateKey)
        case maskedKey(PredicateKey, mask: Int64)
        case literal(Literal)
        case list([(literal: Literal, position: Int)])
    }

    private enum Literal {
        case integer(Int64)
        case real(Double)
        case string(String)
        case boolean(Bool)
        case null
    }

    private enum Operator {
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
                throw PredicateError("\(aggregate) applies to a key of many values, such as keywords", at: aggregatePosition)
            }
            let element = PredicateKey(key.name, .text)
            let test = try self.test(.key(element), key: element, comparison, options, right, operatorAt: operatorPosition,
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
            throw PredicateError("\(key.name) holds many values: use ANY \(key.name) == 'x' or 'x' IN \(key.name)",
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
            return try test(left, key: key, comparison, options, right, operatorAt: operatorPosition,
                            optionsAt: optionsPosition, valueAt: rightPosition)
        case (_, .key(let key)), (_, .maskedKey(let key, _)):
            let swapped: Operator
            switch comparison {
            case .compare(let comparison): swapped = .compare(comparison.swapped)
            case .within where key.type == .mediaSubtypes || key.type == .text: swapped = .contains
            default:
                throw PredicateError("put the key on the left of \(comparison.name)", at: leftPosition)
            }
            return try test(right, key: key, swapped, options, left, operatorAt: operatorPosition,
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
                    throw PredicateError("list longer than \(PredicateLimits.maximumListCount) values", at: current.position)
                }
                let position = current.position
                guard case .literal(let literal) = try parseOperand() else {
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

    // MARK: - Checking

    /// The test of `key` (operand `keyOperand`) against the value operand, checked for types and operators.
    private mutating func test(_ keyOperand: Operand, key: PredicateKey, _ comparison: Operator, _ options: TextOptions,
                               _ valueOperand: Operand, operatorAt operatorPosition: Int, optionsAt optionsPosition: Int,
                               valueAt valuePosition: Int) throws(PredicateError) -> QueryPredicate {
        let isText: Bool
        switch key.type {
        case .text, .enumeration: isText = true
        default: isText = false
        }
        if !options.isEmpty {
            guard isText else { throw PredicateError("[c] and [d] apply only to text keys", at: optionsPosition) }
            if case .compare(let operation) = comparison, operation != .equal, operation != .notEqual {
                throw PredicateError("[c] and [d] do not apply to \(operation.rawValue)", at: optionsPosition)
            }
            if case .between = comparison {
                throw PredicateError("[c] and [d] do not apply to BETWEEN", at: optionsPosition)
            }
        }
        if case .maskedKey(_, let mask) = keyOperand {
            guard case .compare(let operation) = comparison, case .literal(.integer(let value)) = valueOperand else {
                throw PredicateError("compare a masked mediaSubtypes with an integer", at: valuePosition)
            }
            try countValues(2, at: valuePosition)
            return .test(KeyTest(key: key, condition: .masked(mask: mask, operation, value)))
        }
        switch comparison {
        case .compare(let operation):
            switch valueOperand {
            case .literal(.null):
                switch operation {
                case .equal: return .test(KeyTest(key: key, condition: .isNil))
                case .notEqual: return .not(.test(KeyTest(key: key, condition: .isNil)))
                default: throw PredicateError("nil can only be compared with == or !=", at: valuePosition)
                }
            case .literal(let literal):
                if operation != .equal, operation != .notEqual {
                    switch key.type {
                    case .boolean, .mediaType, .mediaSubtypes:
                        throw PredicateError("\(operation.rawValue) does not apply to \(key.name)", at: operatorPosition)
                    default: break
                    }
                }
                let value = try self.value(literal, for: key, at: valuePosition,
                                           checksNames: options.isEmpty && (operation == .equal || operation == .notEqual))
                return .test(KeyTest(key: key, condition: .compare(operation, value.folded(options), options)))
            default:
                throw PredicateError("a list needs IN or BETWEEN", at: valuePosition)
            }
        case .within:
            guard case .list(let elements) = valueOperand else {
                throw PredicateError("IN needs a list such as {1, 2}", at: valuePosition)
            }
            guard key.type != .mediaSubtypes else {
                throw PredicateError("use CONTAINS to test mediaSubtypes", at: operatorPosition)
            }
            var values: [PredicateValue] = []
            var includesNil = false
            for element in elements {
                if case .null = element.literal {
                    includesNil = true
                } else {
                    values.append(try value(element.literal, for: key, at: element.position, checksNames: options.isEmpty).folded(options))
                }
            }
            return .test(KeyTest(key: key, condition: .oneOf(values, includesNil: includesNil, options)))
        case .between:
            guard case .list(let elements) = valueOperand, elements.count == 2 else {
                throw PredicateError("BETWEEN needs a list of two values such as {1, 5}", at: valuePosition)
            }
            switch key.type {
            case .boolean, .mediaType, .mediaSubtypes:
                throw PredicateError("BETWEEN does not apply to \(key.name)", at: operatorPosition)
            default: break
            }
            let lower = try value(elements[0].literal, for: key, at: elements[0].position, checksNames: false)
            let upper = try value(elements[1].literal, for: key, at: elements[1].position, checksNames: false)
            return .test(KeyTest(key: key, condition: .between(lower, upper)))
        case .beginsWith, .endsWith, .contains, .like:
            if key.type == .mediaSubtypes, case .contains = comparison, case .literal(let literal) = valueOperand {
                guard case .integer(let mask) = try value(literal, for: key, at: valuePosition, checksNames: true) else {
                    throw PredicateError("mediaSubtypes CONTAINS needs a subtype name", at: valuePosition)
                }
                return .test(KeyTest(key: key, condition: .masked(mask: mask, .equal, mask)))
            }
            guard isText else {
                throw PredicateError("\(comparison.name) applies only to text keys", at: operatorPosition)
            }
            guard case .literal(.string(let text)) = valueOperand else {
                throw PredicateError("\(comparison.name) needs a quoted string", at: valuePosition)
            }
            try countValues(1, at: valuePosition)
            let pattern: WildcardPattern
            switch comparison {
            case .beginsWith: pattern = .beginning(with: text)
            case .endsWith: pattern = .ending(with: text)
            case .contains: pattern = .containing(text)
            default: pattern = WildcardPattern(like: text)
            }
            let folded = pattern.folded(options)
            guard folded.minimumLength <= PredicateLimits.maximumPatternLength else {
                throw PredicateError("pattern longer than \(PredicateLimits.maximumPatternLength) characters", at: valuePosition)
            }
            return .test(KeyTest(key: key, condition: .matches(folded, options)))
        }
    }

    /// A literal converted to `key`'s domain; `checksNames` refuses enumeration text that is not a known name.
    private mutating func value(_ literal: Literal, for key: PredicateKey, at position: Int,
                                checksNames: Bool) throws(PredicateError) -> PredicateValue {
        try countValues(1, at: position)
        switch (key.type, literal) {
        case (.integer, .integer(let value)): return .integer(value)
        case (.integer, .real(let value)), (.real, .real(let value)): return .real(value)
        case (.real, .integer(let value)): return .real(Double(value))
        case (.integer, _), (.real, _):
            throw PredicateError("\(key.name) needs a number", at: position)
        case (.date, .string(let text)):
            guard let date = Timestamp(rfc3339: text) else {
                throw PredicateError("'\(text)' is not an RFC 3339 date such as 2024-01-31T10:15:00Z", at: position)
            }
            return .real(date.secondsSince1970)
        case (.date, _):
            throw PredicateError("\(key.name) needs an RFC 3339 date string such as '2024-01-31T10:15:00Z'", at: position)
        case (.boolean, .boolean(let value)): return .boolean(value)
        case (.boolean, .integer(let value)) where value == 0 || value == 1: return .boolean(value == 1)
        case (.boolean, _):
            throw PredicateError("\(key.name) needs TRUE, FALSE, YES or NO", at: position)
        case (.text, .string(let value)): return .text(value)
        case (.text, _):
            throw PredicateError("\(key.name) needs a quoted string", at: position)
        case (.enumeration(let names), .string(let value)):
            guard !checksNames || names.contains(value) else {
                throw PredicateError("unknown \(key.name) '\(value)'", at: position)
            }
            return .text(value)
        case (.enumeration, _):
            throw PredicateError("\(key.name) needs a quoted name", at: position)
        case (.mediaType, .string(let name)):
            guard let mediaType = MediaType(rawValue: name) else {
                throw PredicateError("unknown media type '\(name)' (image, video, audio or unknown)", at: position)
            }
            return .integer(Int64(mediaType.photoKitValue))
        case (.mediaType, .integer(let number)):
            guard let mediaType = MediaType(photoKitValue: Int(clamping: number)) else {
                throw PredicateError("unknown media type number \(number) (1 image, 2 video, 3 audio)", at: position)
            }
            return .integer(Int64(mediaType.photoKitValue))
        case (.mediaType, _):
            throw PredicateError("mediaType needs a name such as 'image' or a number such as 1", at: position)
        case (.mediaSubtypes, .integer(let value)): return .integer(value)
        case (.mediaSubtypes, .string(let name)):
            guard let subtypes = MediaSubtypes(wireNames: [name]) else {
                throw PredicateError("unknown media subtype '\(name)'", at: position)
            }
            return .integer(Int64(subtypes.rawValue))
        case (.mediaSubtypes, _):
            throw PredicateError("mediaSubtypes needs a subtype name or an integer", at: position)
        case (.textList, _):
            throw PredicateError("\(key.name) holds many values: use ANY \(key.name) == 'x'", at: position)
        }
    }

    private mutating func countValues(_ count: Int, at position: Int) throws(PredicateError) {
        valueCount += count
        guard valueCount <= PredicateLimits.maximumValueCount else {
            throw PredicateError("more than \(PredicateLimits.maximumValueCount) values", at: position)
        }
    }

    private mutating func countComparison(at position: Int) throws(PredicateError) {
        comparisonCount += 1
        guard comparisonCount <= PredicateLimits.maximumComparisonCount else {
            throw PredicateError("more than \(PredicateLimits.maximumComparisonCount) comparisons", at: position)
        }
    }

    private func lookUp(_ name: String, at position: Int) throws(PredicateError) -> PredicateKey {
        guard let key = schema.keys[name] else { throw PredicateError(schema.unknownKeyProblem(name), at: position) }
        return key
    }

    // MARK: - Tokens

    private var current: PredicateToken { tokens[index] }

    private mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    /// Whether the tokens ahead are `( key &`, a masked key in parentheses rather than a nested predicate.
    private var startsMaskedKey: Bool {
        guard index + 2 < tokens.count, case .word = tokens[index + 1].kind else { return false }
        return tokens[index + 2].kind == .symbol(.ampersand)
    }

    private func isAt(word: String) -> Bool {
        guard case .word(let found) = current.kind else { return false }
        return found.uppercased() == word
    }

    private mutating func accept(word: String) -> Bool {
        guard isAt(word: word) else { return false }
        advance()
        return true
    }

    private mutating func accept(_ symbol: PredicateToken.Symbol) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        advance()
        return true
    }

    private func unexpected(expecting expected: String? = nil) -> PredicateError {
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
