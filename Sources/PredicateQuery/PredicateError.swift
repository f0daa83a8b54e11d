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
}
