/// A text pattern of literal characters, `*` (any run) and `?` (any one character), matched against whole
/// strings character by character (Unicode scalars, as SQLite's GLOB does).
public struct WildcardPattern: Sendable, Hashable {
    public enum Element: Sendable, Hashable {
        case literal(Unicode.Scalar)
        case anyCharacter
        case anyRun
    }

    /// The elements, a run of `*` kept as one (they match the same text, and a hostile pattern of 100,000 `*`
    /// would otherwise cost as much to match).
    public private(set) var elements: [Element]

    public init(elements: [Element]) {
        self.elements = []
        self.elements.reserveCapacity(elements.count)
        for element in elements where element != .anyRun || self.elements.last != .anyRun {
            self.elements.append(element)
        }
    }

    /// The fewest characters a matching text has: one for each literal and each `?`.
    public var minimumLength: Int { elements.count(where: { $0 != .anyRun }) }

    /// NSPredicate's LIKE: `*` and `?` are wildcards, a backslash makes the next character literal.
    public init(like pattern: String) {
        var elements: [Element] = []
        var escaping = false
        for scalar in pattern.unicodeScalars {
            if escaping {
                elements.append(.literal(scalar))
                escaping = false
                continue
            }
            switch scalar {
            case "\\": escaping = true
            case "*": elements.append(.anyRun)
            case "?": elements.append(.anyCharacter)
            default: elements.append(.literal(scalar))
            }
        }
        if escaping { elements.append(.literal("\\")) }
        self.init(elements: elements)
    }

    /// The pattern that matches text beginning with `prefix`.
    public static func beginning(with prefix: String) -> WildcardPattern {
        WildcardPattern(elements: prefix.unicodeScalars.map(Element.literal) + [.anyRun])
    }

    /// The pattern that matches text ending with `suffix`.
    public static func ending(with suffix: String) -> WildcardPattern {
        WildcardPattern(elements: [.anyRun] + suffix.unicodeScalars.map(Element.literal))
    }

    /// The pattern that matches text containing `part`.
    public static func containing(_ part: String) -> WildcardPattern {
        WildcardPattern(elements: [.anyRun] + part.unicodeScalars.map(Element.literal) + [.anyRun])
    }

    /// The same pattern with each run of literal characters folded by `options`.
    public func folded(_ options: TextOptions) -> WildcardPattern {
        guard !options.isEmpty else { return self }
        var folded: [Element] = []
        var literals = String.UnicodeScalarView()
        func flush() {
            folded += TextFolding.fold(String(literals), options).unicodeScalars.map(Element.literal)
            literals = String.UnicodeScalarView()
        }
        for element in elements {
            if case .literal(let scalar) = element {
                literals.append(scalar)
            } else {
                flush()
                folded.append(element)
            }
        }
        flush()
        return WildcardPattern(elements: folded)
    }

    /// The pattern as an SQLite GLOB pattern: wildcard characters that are literal here go in brackets.
    public var glob: String {
        var result = String.UnicodeScalarView()
        for element in elements {
            switch element {
            case .anyRun: result.append("*")
            case .anyCharacter: result.append("?")
            case .literal(let scalar) where scalar == "*" || scalar == "?" || scalar == "[":
                result.append(contentsOf: ["[", scalar, "]"])
            case .literal(let scalar): result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether the whole of `text` matches (greedy with backtracking to the last `*`, linear in practice).
    public func matches(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        // A long pattern against a shorter text would otherwise cost their product to refuse.
        guard scalars.count >= minimumLength else { return false }
        var patternIndex = 0, textIndex = 0
        var lastRun: (pattern: Int, text: Int)?
        while textIndex < scalars.count {
            if patternIndex < elements.count {
                switch elements[patternIndex] {
                case .anyRun:
                    lastRun = (patternIndex, textIndex)
                    patternIndex += 1
                    continue
                case .anyCharacter:
                    patternIndex += 1
                    textIndex += 1
                    continue
                case .literal(let scalar) where scalar == scalars[textIndex]:
                    patternIndex += 1
                    textIndex += 1
                    continue
                case .literal:
                    break
                }
            }
            guard let run = lastRun else { return false }
            lastRun = (run.pattern, run.text + 1)
            patternIndex = run.pattern + 1
            textIndex = run.text + 1
        }
        return elements[patternIndex...].allSatisfy { $0 == .anyRun }
    }
}
