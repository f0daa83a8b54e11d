/// Why a predicate was refused, and where: `position` counts Unicode scalars from 0.
public struct PredicateError: Error, Sendable, Hashable, CustomStringConvertible {
    public var problem: String
    public var position: Int

    public init(_ problem: String, at position: Int) {
        self.problem = problem
        self.position = position
    }

    /// For example `unknown key 'foo' at position 12`.
    public var description: String { "\(problem) at position \(position)" }
}

/// The limits that keep hostile predicates cheap to refuse and safe to run.
public enum PredicateLimits {
    /// The longest predicate text, in Unicode scalars.
    public static let maximumLength = 1_000_000
    /// The deepest nesting of parentheses and NOTs.
    public static let maximumDepth = 64
    /// The most values in one `IN {…}` list.
    public static let maximumListCount = 10_000
    /// The most literal values in the whole predicate (each becomes one bound SQL parameter).
    public static let maximumValueCount = 20_000
    /// The most comparisons (and TRUEPREDICATEs, FALSEPREDICATEs) in the whole predicate: SQLite's planning of a
    /// WHERE clause grows with the square of its terms (20,000 took 7.8 s; 1,000 take 15 ms).
    public static let maximumComparisonCount = 1_000
    /// The longest pattern of BEGINSWITH, ENDSWITH, CONTAINS or LIKE, in characters a match needs (`*` not counted,
    /// and a run of them is one): longer than any name or camera string the library holds, and well within SQLite's
    /// own limit for GLOB patterns.
    public static let maximumPatternLength = 1_000
}
