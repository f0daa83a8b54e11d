import Foundation

/// The folding behind `[c]` and `[d]`: the predicate's literals and the stored text go through the same function.
public enum TextFolding {
    /// `text` with case and/or diacritics folded away as `options` say.
    public static func fold(_ text: String, _ options: TextOptions) -> String {
        var compareOptions: String.CompareOptions = []
        if options.contains(.caseInsensitive) { compareOptions.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { compareOptions.insert(.diacriticInsensitive) }
        guard !compareOptions.isEmpty else { return text }
        return text.folding(options: compareOptions, locale: nil)
    }
}
