extension QueryPredicate {
    /// Whether an object satisfies the predicate; `value` gives each key's value in its domain, nil for none.
    public func evaluate(_ value: (PredicateKey) -> PredicateValue?) -> Bool {
        switch self {
        case .constant(let result): result
        case .not(let inner): !inner.evaluate(value)
        case .and(let terms): terms.allSatisfy { $0.evaluate(value) }
        case .or(let terms): terms.contains { $0.evaluate(value) }
        case .test(let test): test.evaluate(value(test.key))
        }
    }
}

extension KeyTest {
    /// Whether a key value (nil for none) passes the test; a missing value passes only `isNil`.
    func evaluate(_ value: PredicateValue?) -> Bool {
        if case .isNil = condition { return value == nil }
        guard let value else {
            if case .oneOf(_, let includesNil, _) = condition { return includesNil }
            if case .compare(.notEqual, _, _) = condition { return true }
            return false
        }
        switch condition {
        case .isNil:
            return false
        case .compare(let operation, let expected, let options):
            return operation.holds(forOrder: value.folded(options).order(comparedTo: expected))
        case .between(let lower, let upper):
            return value.order(comparedTo: lower) >= 0 && value.order(comparedTo: upper) <= 0
        case .oneOf(let values, _, let options):
            let candidate = value.folded(options)
            return values.contains { candidate.order(comparedTo: $0) == 0 }
        case .matches(let pattern, let options):
            guard case .text(let text) = value else { return false }
            return pattern.matches(TextFolding.fold(text, options))
        case .anyElement(let inner):
            guard case .texts(let elements) = value else { return false }
            return elements.contains { KeyTest(key: key, condition: inner).evaluate(.text($0)) }
        case .masked(let mask, let operation, let expected):
            guard case .integer(let bits) = value else { return false }
            return operation.holds(forOrder: PredicateValue.integer(bits & mask).order(comparedTo: .integer(expected)))
        }
    }
}
