/// The properties an `updateAsset` change sets.
public struct AssetUpdate: Sendable, Hashable {
    public var isFavorite: Bool?
    public var isHidden: Bool?
    public var creationDate: FieldUpdate<Timestamp>
    public var location: FieldUpdate<Location>
    /// The new stars, -1 (rejected) to 5.
    public var rating: Int?
    /// The whole new list of keywords; `addKeywords` and `removeKeywords` apply after it.
    public var keywords: [String]?
    public var addKeywords: [String]
    public var removeKeywords: [String]
    public var title: FieldUpdate<String>
    public var caption: FieldUpdate<String>

    public init(isFavorite: Bool? = nil, isHidden: Bool? = nil, creationDate: FieldUpdate<Timestamp> = .unchanged,
                location: FieldUpdate<Location> = .unchanged, rating: Int? = nil, keywords: [String]? = nil,
                addKeywords: [String] = [], removeKeywords: [String] = [], title: FieldUpdate<String> = .unchanged,
                caption: FieldUpdate<String> = .unchanged) {
        self.isFavorite = isFavorite
        self.isHidden = isHidden
        self.creationDate = creationDate
        self.location = location
        self.rating = rating
        self.keywords = keywords
        self.addKeywords = addKeywords
        self.removeKeywords = removeKeywords
        self.title = title
        self.caption = caption
    }

    /// Whether the update touches the stars, keywords, title or caption (which sidecars keep).
    public var changesAnnotations: Bool {
        rating != nil || keywords != nil || !addKeywords.isEmpty || !removeKeywords.isEmpty || title != .unchanged
            || caption != .unchanged
    }

    /// `annotations` with this update's stars, keywords, title and caption applied.
    public func applied(to annotations: Annotations) -> Annotations {
        var result = annotations
        if let rating { result.rating = rating }
        var keywords = self.keywords ?? result.keywords
        keywords += addKeywords
        let removed = Set(removeKeywords)
        result.keywords = Annotations.normalized(keywords.filter { !removed.contains($0) })
        switch title {
        case .unchanged: break
        case .cleared: result.title = nil
        case .set(let text): result.title = Annotations.normalized(text: text)
        }
        switch caption {
        case .unchanged: break
        case .cleared: result.caption = nil
        case .set(let text): result.caption = Annotations.normalized(text: text)
        }
        return result
    }
}

extension ChangeRequest {
    /// The `updateAsset` fields as an update, each checked: ratings in -1...5, keywords of at most 1,000
    /// characters, titles and captions without NUL.
    func checkedAssetUpdate(index: Int) throws(LibraryError) -> AssetUpdate {
        if let rating, !Annotations.ratings.contains(rating) {
            throw .invalidChange(index: index, reason: "rating \(rating) is outside -1...5 (-1 rejected, 0 unrated, 1 to 5 stars)")
        }
        let lists = [keywords, addKeywords, removeKeywords].compactMap { $0 }
        for keyword in lists.joined() {
            if let problem = Annotations.problem(withKeyword: keyword) { throw .invalidChange(index: index, reason: problem) }
        }
        if lists.map(\.count).reduce(0, +) > Annotations.maximumKeywordCount {
            throw .invalidChange(index: index, reason: "more than \(Annotations.maximumKeywordCount) keywords")
        }
        func textUpdate(_ text: String?, _ field: String) throws(LibraryError) -> FieldUpdate<String> {
            guard let text else { return .unchanged }
            if let problem = Annotations.problem(withText: text, field: field) { throw .invalidChange(index: index, reason: problem) }
            return Annotations.normalized(text: text).map { .set($0) } ?? .cleared
        }
        return AssetUpdate(isFavorite: isFavorite, isHidden: isHidden, creationDate: creationDate, location: location,
                           rating: rating, keywords: keywords, addKeywords: addKeywords ?? [],
                           removeKeywords: removeKeywords ?? [], title: try textUpdate(title, "title"),
                           caption: try textUpdate(caption, "caption"))
    }
}
