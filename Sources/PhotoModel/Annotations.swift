/// What a person said about a photo, here or in another program (darktable, digiKam, Lightroom, a camera): its
/// stars, keywords, title and caption, as XMP and IPTC keep them.
public struct Annotations: Sendable, Hashable, Codable {
    /// 0 (unrated) to 5 stars; -1 marks a rejected photo, as darktable and Lightroom write it.
    public var rating: Int
    /// Keywords in the order given, each once; a hierarchy's levels are joined by `|` (`Places|France|Paris`), as
    /// Lightroom's `lr:hierarchicalSubject` writes them.
    public var keywords: [String]
    public var title: String?
    public var caption: String?

    public init(rating: Int = 0, keywords: [String] = [], title: String? = nil, caption: String? = nil) {
        self.rating = rating
        self.keywords = keywords
        self.title = title
        self.caption = caption
    }

    /// No stars, keywords, title or caption.
    public var isEmpty: Bool { self == Annotations() }

    /// The ratings a photo may have: rejected, then 0 to 5 stars.
    public static let ratings = -1...5
    /// The longest keyword, in characters.
    public static let maximumKeywordLength = 1_000
    /// The most keywords one photo keeps.
    public static let maximumKeywordCount = 10_000
    /// The longest title or caption, in UTF-8 bytes.
    public static let maximumTextLength = 64 * 1024

    /// Keywords as the library keeps them: trimmed of surrounding white space, empty ones dropped, each once (the
    /// first occurrence keeps its place).
    public static func normalized(_ keywords: [String]) -> [String] {
        var seen = Set<String>()
        return keywords.map { $0.trimmingWhitespace }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Text as the library keeps a title or caption: trimmed; nil when nothing is left.
    public static func normalized(text: String?) -> String? {
        guard let trimmed = text?.trimmingWhitespace, !trimmed.isEmpty else { return nil }
        return trimmed
    }

    /// Why `keyword` cannot be kept, or nil when it can.
    public static func problem(withKeyword keyword: String) -> String? {
        if keyword.count > maximumKeywordLength {
            return "a keyword is longer than \(maximumKeywordLength) characters (\(keyword.count))"
        }
        if keyword.contains("\0") { return "a keyword contains NUL" }
        return nil
    }

    /// Why a title or caption cannot be kept, or nil when it can.
    public static func problem(withText text: String, field: String) -> String? {
        if text.utf8.count > maximumTextLength { return "the \(field) is longer than \(maximumTextLength) bytes" }
        if text.contains("\0") { return "the \(field) contains NUL" }
        return nil
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}

/// The XMP sidecar that keeps an asset's annotations beside its file, as the library last read or wrote it.
public struct SidecarState: Sendable, Hashable, Codable {
    public var path: String
    /// Why the library's last change could not be written to the sidecar (a read-only folder, say): the change
    /// is kept in the library. Nil when the sidecar holds the library's annotations.
    public var writeProblem: String?

    public init(path: String, writeProblem: String? = nil) {
        self.path = path
        self.writeProblem = writeProblem
    }
}
