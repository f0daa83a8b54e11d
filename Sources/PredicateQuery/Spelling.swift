/// How words a person typed compare with the words a program knows, for "did you mean …?" answers.
public enum Spelling {
    /// The candidate spelled most like `word`, case aside, when at most `maximumEdits` edits away; nil otherwise.
    public static func closest(to word: String, among candidates: some Sequence<String>, maximumEdits: Int) -> String? {
        let typed = Array(word.lowercased())
        let distances = candidates.map { ($0, editDistance(typed, Array($0.lowercased()))) }
        guard let best = distances.min(by: { $0.1 < $1.1 }), best.1 <= maximumEdits else { return nil }
        return best.0
    }

    /// The Levenshtein distance between two strings' characters.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j] + (x == y ? 0 : 1), previous[j + 1] + 1, current[j] + 1)
            }
            previous = current
        }
        return previous[b.count]
    }
}
