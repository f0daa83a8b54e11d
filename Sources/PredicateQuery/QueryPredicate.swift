/// A parsed predicate whose every key and literal was checked against a schema.
///
/// Logic is two-valued, as in `NSPredicate`: a test of a key without a value (`nil`) is false unless it
/// tests for `nil`, and `NOT` of a false test is true.
public indirect enum QueryPredicate: Sendable, Hashable {
    case constant(Bool)
    case not(QueryPredicate)
    case and([QueryPredicate])
    case or([QueryPredicate])
    case test(KeyTest)

    /// Parses NSPredicate-format `text` over the keys of `schema`.
    public init(parsing text: String, schema: PredicateSchema) throws(PredicateError) {
        var parser = try PredicateParser(text: text, schema: schema)
        self = try parser.parsePredicate()
    }
}

/// One condition on one key.
public struct KeyTest: Sendable, Hashable {
    public var key: PredicateKey
    public var condition: Condition

    public init(key: PredicateKey, condition: Condition) {
        self.key = key
        self.condition = condition
    }
}

/// What a `KeyTest` checks. Values are already in the key's domain (see `PredicateValue`).
public enum Condition: Sendable, Hashable {
    /// The key has no value.
    case isNil
    /// The key's value compares to a value; `options` fold text before comparing.
    case compare(ComparisonOperator, PredicateValue, TextOptions)
    /// The key's value lies in the closed range.
    case between(PredicateValue, PredicateValue)
    /// The key's value is one of `values`, or nil when `includesNil`.
    case oneOf([PredicateValue], includesNil: Bool, TextOptions)
    /// The key's text matches a wildcard pattern (BEGINSWITH, ENDSWITH, CONTAINS, LIKE).
    case matches(WildcardPattern, TextOptions)
    /// `(key & mask) op value` on an integer bit set.
    case masked(mask: Int64, ComparisonOperator, Int64)
    /// At least one of the key's texts passes the condition (`ANY keywords BEGINSWITH 'Places|'`).
    indirect case anyElement(Condition)
}

/// A comparison, in the order `key op value`.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    /// The operator that gives the same result with its operands swapped (`3 < x` is `x > 3`).
    var swapped: ComparisonOperator {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        }
    }

    /// Whether `order` (negative, zero or positive, as lhs sorts before, with or after rhs) satisfies the operator.
    func holds(forOrder order: Int) -> Bool {
        switch self {
        case .equal: order == 0
        case .notEqual: order != 0
        case .less: order < 0
        case .lessOrEqual: order <= 0
        case .greater: order > 0
        case .greaterOrEqual: order >= 0
        }
    }
}

/// A checked literal in its key's domain: dates as seconds since 1970, media types as PhotoKit numbers.
public enum PredicateValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case boolean(Bool)
    /// The texts of a list key (`keywords`), for evaluation; never a literal.
    case texts([String])

    /// Negative, zero or positive as `self` sorts before, with or after `other`; numbers compare by value,
    /// text by its UTF-8 bytes (as SQLite does). Values of different kinds never meet after checking.
    public func order(comparedTo other: PredicateValue) -> Int {
        switch (self, other) {
        case let (.text(a), .text(b)):
            return a.utf8.elementsEqual(b.utf8) ? 0 : (a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1)
        case let (.boolean(a), .boolean(b)):
            return a == b ? 0 : (a ? 1 : -1)
        default:
            guard let a = numericValue, let b = other.numericValue else { return 1 }
            return a < b ? -1 : (a > b ? 1 : 0)
        }
    }

    /// The value with its text folded by `options`; other values are unchanged.
    public func folded(_ options: TextOptions) -> PredicateValue {
        guard case .text(let text) = self, !options.isEmpty else { return self }
        return .text(TextFolding.fold(text, options))
    }

    private var numericValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        case .boolean(let value): value ? 1 : 0
        case .text, .texts: nil
        }
    }
}

/// NSPredicate's `[c]` (case-insensitive) and `[d]` (diacritic-insensitive) string options.
public struct TextOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let caseInsensitive = TextOptions(rawValue: 1)
    public static let diacriticInsensitive = TextOptions(rawValue: 2)
}
