import Foundation
import PhotoModel

/// Stars, keywords, title and caption as one source (a file's embedded metadata, a sidecar) gives them: each nil
/// where the source says nothing, so that a sidecar overrides only what it says.
public struct AnnotationReading: Sendable, Hashable {
    public var rating: Int?
    public var keywords: [String]?
    public var title: String?
    public var caption: String?
    /// Where the photo was taken, as a sidecar's `exif:GPSLatitude` and `exif:GPSLongitude` say (a person geotagged
    /// it in darktable, digiKam or Lightroom); nil when it says nothing usable.
    public var location: Location?
    /// Properties that were there but could not be used (a rating that is not a number, say): each is ignored.
    public var problems: [String] = []

    public init(
        rating: Int? = nil, keywords: [String]? = nil, title: String? = nil, caption: String? = nil,
        location: Location? = nil
    ) {
        self.location = location
        self.rating = rating
        self.keywords = keywords
        self.title = title
        self.caption = caption
    }

    /// Whether the source says nothing usable.
    public var isEmpty: Bool { rating == nil && keywords == nil && title == nil && caption == nil && location == nil }

    /// This reading over `base`: each field this one has replaces `base`'s (a sidecar over what is embedded).
    public func overriding(_ base: AnnotationReading) -> AnnotationReading {
        var result = AnnotationReading(
            rating: rating ?? base.rating, keywords: keywords ?? base.keywords,
            title: title ?? base.title, caption: caption ?? base.caption,
            location: location ?? base.location)
        result.problems = base.problems + problems
        return result
    }

    /// The annotations an asset keeps: unsaid fields are unrated, without keywords, title or caption.
    public var annotations: Annotations {
        Annotations(
            rating: rating ?? 0, keywords: Annotations.normalized(keywords ?? []),
            title: Annotations.normalized(text: title), caption: Annotations.normalized(text: caption))
    }
}

/// The properties of CONTRACT §14 and how their values become annotations.
enum AnnotationProperties {
    static let rating = "Xmp.xmp.Rating"
    static let subject = "Xmp.dc.subject"
    static let hierarchicalSubject = "Xmp.lr.hierarchicalSubject"
    static let digiKamTags = "Xmp.digiKam.TagsList"
    static let title = "Xmp.dc.title"
    static let description = "Xmp.dc.description"
    static let iptcKeywords = "Iptc.Application2.Keywords"
    static let iptcObjectName = "Iptc.Application2.ObjectName"
    static let iptcCaption = "Iptc.Application2.Caption"

    /// What the XMP of `document` says (`includesIPTC`: then IPTC-IIM fills what the XMP leaves unsaid, as the
    /// Metadata Working Group's guidance reads an image file).
    static func read(_ document: MetadataDocument, includesIPTC: Bool) -> AnnotationReading {
        var reading = AnnotationReading()
        if let values = document.values(of: rating) {
            // Range-checked as a Double first: a rating of -6.7e88 would not fit an Int (fuzzing finding 1).
            if values.count == 1, let number = Double(values[0].trimmingCharacters(in: .whitespaces))?.rounded(),
                Double(Annotations.ratings.lowerBound)...Double(Annotations.ratings.upperBound) ~= number
            {
                reading.rating = Int(number)
            } else {
                reading.problems.append(
                    "xmp:Rating \(values.joined(separator: ", ").prefix(40).debugDescription) is not a rating from -1 to 5"
                )
            }
        }
        reading.keywords = keywords(
            hierarchical: document.values(of: hierarchicalSubject),
            digiKam: document.values(of: digiKamTags), flat: document.values(of: subject))
        reading.title = document.values(of: title).flatMap(defaultLanguageText)
        reading.caption = document.values(of: description).flatMap(defaultLanguageText)
        guard includesIPTC else { return reading }
        var iptc = AnnotationReading()
        iptc.keywords = document.values(of: iptcKeywords)
        iptc.title = document.values(of: iptcObjectName)?.first
        iptc.caption = document.values(of: iptcCaption)?.first
        return reading.overriding(iptc)
    }

    /// One list of keywords from the three XMP properties: Lightroom's and darktable's `A|B|C` hierarchies (else
    /// digiKam's `A/B/C` ones, which digiKam keeps beside them), then the flat `dc:subject` words that are not a
    /// level of any hierarchy (tools write each hierarchy's levels there too). Nil when none of them is there.
    static func keywords(hierarchical: [String]?, digiKam: [String]?, flat: [String]?) -> [String]? {
        guard hierarchical != nil || digiKam != nil || flat != nil else { return nil }
        let paths =
            hierarchical
            ?? (digiKam ?? []).map { $0.split(separator: "/", omittingEmptySubsequences: false).joined(separator: "|") }
        let levels = Set(paths.flatMap { $0.split(separator: "|").map(String.init) })
        return Annotations.normalized(paths + (flat ?? []).filter { !levels.contains($0) || paths.contains($0) })
    }

    /// The text of a language alternative for the default language (`lang="x-default" text`), else of its first
    /// language; a plain value as it is.
    static func defaultLanguageText(_ values: [String]) -> String? {
        let entries = values.map { value -> (language: String?, text: String) in
            guard value.hasPrefix("lang=\""), let close = value.dropFirst(6).firstIndex(of: "\"") else {
                return (nil, value)
            }
            let language = String(value[value.index(value.startIndex, offsetBy: 6)..<close])
            return (language, String(value[value.index(after: close)...].drop(while: { $0 == " " })))
        }
        return (entries.first { $0.language == "x-default" } ?? entries.first)?.text
    }

    /// Writes `annotations` into the XMP of `document`, leaving every other property as it is. Keywords go to
    /// all three keyword properties (darktable and Lightroom read the hierarchies, digiKam its own list, other
    /// tools the flat words); a title or caption replaces the default language's text only.
    static func write(_ annotations: Annotations, into document: MetadataDocument) throws(MetadataError) {
        try document.set(rating, to: String(annotations.rating))
        if annotations.keywords.isEmpty {
            [subject, hierarchicalSubject, digiKamTags].forEach(document.remove)
        } else {
            var seen = Set<String>()
            let words = annotations.keywords.compactMap { $0.split(separator: "|").last.map(String.init) }.filter {
                seen.insert($0).inserted
            }
            try document.set(subject, to: words)
            try document.set(hierarchicalSubject, to: annotations.keywords)
            try document.set(
                digiKamTags,
                to: annotations.keywords.map {
                    $0.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "/")
                })
        }
        for (property, text) in [(title, annotations.title), (description, annotations.caption)] {
            if let text {
                try document.set(property, to: "lang=\"x-default\" " + text)
            } else {
                document.remove(property)
            }
        }
    }
}
