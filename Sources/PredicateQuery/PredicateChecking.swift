import PhotoModel

/// Checking: each comparison tested against its key's type and operators, and the predicate's size bounded.
extension PredicateParser {
    /// The test of `key` (operand `keyOperand`) against the value operand, checked for types and operators.
    mutating func test(_ keyOperand: Operand, key: PredicateKey, _ comparison: Operator, _ options: TextOptions,
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

    mutating func countValues(_ count: Int, at position: Int) throws(PredicateError) {
        valueCount += count
        guard valueCount <= PredicateLimits.maximumValueCount else {
            throw PredicateError("more than \(PredicateLimits.maximumValueCount) values", at: position)
        }
    }

    mutating func countComparison(at position: Int) throws(PredicateError) {
        comparisonCount += 1
        guard comparisonCount <= PredicateLimits.maximumComparisonCount else {
            throw PredicateError("more than \(PredicateLimits.maximumComparisonCount) comparisons", at: position)
        }
    }

    func lookUp(_ name: String, at position: Int) throws(PredicateError) -> PredicateKey {
        guard let key = schema.keys[name] else { throw PredicateError(schema.unknownKeyProblem(name), at: position) }
        return key
    }
}
