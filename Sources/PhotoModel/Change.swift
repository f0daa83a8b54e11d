/// A field of an update that may be left alone, cleared (JSON null) or set.
public enum FieldUpdate<Value: Sendable & Hashable>: Sendable, Hashable {
    case unchanged
    case cleared
    case set(Value)
}

/// One operation of a `PerformChanges` call, checked for shape. Ids may be placeholders (`@…`).
public enum LibraryChange: Sendable, Hashable {
    case createAsset(AssetCreation)
    case updateAsset(target: String, AssetUpdate)
    case deleteAssets(ids: [String], permanently: Bool)
    case restoreAssets(ids: [String])
    /// Merges one group of duplicates into its best member, as Photos does (CONTRACT §17).
    case mergeDuplicates(ids: [String])
    /// `id`: a lowercase UUID the client chose for it.
    case createAlbum(title: String, placeholder: String?, parent: String?, id: String? = nil)
    case createFolder(title: String, placeholder: String?, parent: String?, id: String? = nil)
    case updateCollection(target: String, title: String)
    case deleteCollections(ids: [String])
    case addAssets(target: String, ids: [String])
    case insertAssets(target: String, ids: [String], indexes: [Int])
    case removeAssets(target: String, ids: [String])
    case moveAssets(target: String, indexes: [Int], toIndex: Int)
    case addChildCollections(target: String, ids: [String])
    case removeChildCollections(target: String, ids: [String])
    case moveChildCollections(target: String, indexes: [Int], toIndex: Int)
    /// Keeps an edit beside the original: the rendered file at `renderedPath`, or, when nil, the daemon's own
    /// rendering of an `io.photolibd.basic` adjustment.
    /// `renderedUpload`: the rendered file sent with `Import.Upload` instead, by a caller whose files the daemon
    /// cannot read.
    case editAsset(target: String, renderedPath: String?, adjustment: Adjustment, renderedUpload: String? = nil)
    case revertAsset(target: String)

    /// The contract's name of the op.
    public var op: String {
        switch self {
        case .createAsset: "createAsset"
        case .updateAsset: "updateAsset"
        case .deleteAssets: "deleteAssets"
        case .restoreAssets: "restoreAssets"
        case .mergeDuplicates: "mergeDuplicates"
        case .createAlbum: "createAlbum"
        case .createFolder: "createFolder"
        case .updateCollection: "updateCollection"
        case .deleteCollections: "deleteCollections"
        case .addAssets: "addAssets"
        case .insertAssets: "insertAssets"
        case .removeAssets: "removeAssets"
        case .moveAssets: "moveAssets"
        case .addChildCollections: "addChildCollections"
        case .removeChildCollections: "removeChildCollections"
        case .moveChildCollections: "moveChildCollections"
        case .editAsset: "editAsset"
        case .revertAsset: "revertAsset"
        }
    }
}

/// A `Change` object as it arrives on the wire: `op` plus whichever fields that op uses.
public struct ChangeRequest: Sendable, Hashable, Codable {
    public var op: String
    public var path: String?
    public var placeholder: String?
    public var target: String?
    public var isFavorite: Bool?
    public var isHidden: Bool?
    public var creationDate: FieldUpdate<Timestamp>
    public var location: FieldUpdate<Location>
    public var ids: [String]?
    public var permanently: Bool?
    public var title: String?
    public var parent: String?
    public var indexes: [Int]?
    public var toIndex: Int?
    /// `editAsset`: the rendered file of the edit.
    public var renderedPath: String?
    /// `editAsset`: how the edit was made.
    public var adjustment: Adjustment?
    /// `createAsset`, `createAlbum`, `createFolder`: the id the client chose for the new object, a lowercase UUID.
    public var id: String?
    /// `createAsset`: the upload (`Import.Upload`) whose bytes make the asset, instead of `path`.
    public var upload: String?
    /// `createAsset`: the asset's files as resources, instead of `path` or `upload`.
    public var resources: [NewAssetFile]?
    /// `updateAsset`: the stars (-1 rejected, 0 to 5).
    public var rating: Int?
    /// `updateAsset`: the whole list of keywords, then keywords to add and to remove.
    public var keywords: [String]?
    public var addKeywords: [String]?
    public var removeKeywords: [String]?
    /// `updateAsset`: the caption; `title` is the asset's title there. For both, empty text or null clears it.
    public var caption: String?

    public init(
        op: String, path: String? = nil, placeholder: String? = nil, target: String? = nil,
        isFavorite: Bool? = nil, isHidden: Bool? = nil, creationDate: FieldUpdate<Timestamp> = .unchanged,
        location: FieldUpdate<Location> = .unchanged, ids: [String]? = nil, permanently: Bool? = nil,
        title: String? = nil, parent: String? = nil, indexes: [Int]? = nil, toIndex: Int? = nil,
        renderedPath: String? = nil, adjustment: Adjustment? = nil, id: String? = nil, upload: String? = nil,
        resources: [NewAssetFile]? = nil, rating: Int? = nil, keywords: [String]? = nil,
        addKeywords: [String]? = nil, removeKeywords: [String]? = nil, caption: String? = nil
    ) {
        self.op = op
        self.path = path
        self.placeholder = placeholder
        self.target = target
        self.isFavorite = isFavorite
        self.isHidden = isHidden
        self.creationDate = creationDate
        self.location = location
        self.ids = ids
        self.permanently = permanently
        self.title = title
        self.parent = parent
        self.indexes = indexes
        self.toIndex = toIndex
        self.renderedPath = renderedPath
        self.adjustment = adjustment
        self.id = id
        self.upload = upload
        self.resources = resources
        self.rating = rating
        self.keywords = keywords
        self.addKeywords = addKeywords
        self.removeKeywords = removeKeywords
        self.caption = caption
    }

    enum CodingKeys: String, CodingKey {
        case op, path, placeholder, target, isFavorite, isHidden, creationDate, location
        case ids, permanently, title, parent, indexes, toIndex, renderedPath, adjustment, id, upload, resources
        case rating, keywords, addKeywords, removeKeywords, caption
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func update<Value: Decodable>(_ key: CodingKeys) throws -> FieldUpdate<Value> {
            guard container.contains(key) else { return .unchanged }
            if try container.decodeNil(forKey: key) { return .cleared }
            return .set(try container.decode(Value.self, forKey: key))
        }
        /// Text where null is empty: an update's way to clear a title or caption.
        func clearableText(_ key: CodingKeys) throws -> String? {
            guard container.contains(key) else { return nil }
            return try container.decodeNil(forKey: key) ? "" : try container.decode(String.self, forKey: key)
        }
        self.init(
            op: try container.decode(String.self, forKey: .op),
            path: try container.decodeIfPresent(String.self, forKey: .path),
            placeholder: try container.decodeIfPresent(String.self, forKey: .placeholder),
            target: try container.decodeIfPresent(String.self, forKey: .target),
            isFavorite: try container.decodeIfPresent(Bool.self, forKey: .isFavorite),
            isHidden: try container.decodeIfPresent(Bool.self, forKey: .isHidden),
            creationDate: try update(.creationDate),
            location: try update(.location),
            ids: try container.decodeIfPresent([String].self, forKey: .ids),
            permanently: try container.decodeIfPresent(Bool.self, forKey: .permanently),
            title: try clearableText(.title),
            parent: try container.decodeIfPresent(String.self, forKey: .parent),
            indexes: try container.decodeIfPresent([Int].self, forKey: .indexes),
            toIndex: try container.decodeIfPresent(Int.self, forKey: .toIndex),
            renderedPath: try container.decodeIfPresent(String.self, forKey: .renderedPath),
            adjustment: try container.decodeIfPresent(Adjustment.self, forKey: .adjustment),
            id: try container.decodeIfPresent(String.self, forKey: .id),
            upload: try container.decodeIfPresent(String.self, forKey: .upload),
            resources: try container.decodeIfPresent([NewAssetFile].self, forKey: .resources),
            rating: try container.decodeIfPresent(Int.self, forKey: .rating),
            keywords: try container.decodeIfPresent([String].self, forKey: .keywords),
            addKeywords: try container.decodeIfPresent([String].self, forKey: .addKeywords),
            removeKeywords: try container.decodeIfPresent([String].self, forKey: .removeKeywords),
            caption: try clearableText(.caption)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        func encode<Value: Encodable>(_ update: FieldUpdate<Value>, _ key: CodingKeys) throws {
            switch update {
            case .unchanged: break
            case .cleared: try container.encodeNil(forKey: key)
            case .set(let value): try container.encode(value, forKey: key)
            }
        }
        try container.encode(op, forKey: .op)
        try container.encodeIfPresent(path, forKey: .path)
        try container.encodeIfPresent(placeholder, forKey: .placeholder)
        try container.encodeIfPresent(target, forKey: .target)
        try container.encodeIfPresent(isFavorite, forKey: .isFavorite)
        try container.encodeIfPresent(isHidden, forKey: .isHidden)
        try encode(creationDate, .creationDate)
        try encode(location, .location)
        try container.encodeIfPresent(ids, forKey: .ids)
        try container.encodeIfPresent(permanently, forKey: .permanently)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(parent, forKey: .parent)
        try container.encodeIfPresent(indexes, forKey: .indexes)
        try container.encodeIfPresent(toIndex, forKey: .toIndex)
        try container.encodeIfPresent(renderedPath, forKey: .renderedPath)
        try container.encodeIfPresent(adjustment, forKey: .adjustment)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(upload, forKey: .upload)
        try container.encodeIfPresent(resources, forKey: .resources)
        try container.encodeIfPresent(rating, forKey: .rating)
        try container.encodeIfPresent(keywords, forKey: .keywords)
        try container.encodeIfPresent(addKeywords, forKey: .addKeywords)
        try container.encodeIfPresent(removeKeywords, forKey: .removeKeywords)
        try container.encodeIfPresent(caption, forKey: .caption)
    }

    /// Checks that the op is known and has the fields it needs; `index` is the change's position in the call.
    public func validated(index: Int) throws(LibraryError) -> LibraryChange {
        func required<Value>(_ value: Value?, _ field: String) throws(LibraryError) -> Value {
            guard let value else { throw .invalidChange(index: index, reason: "\(op) needs '\(field)'") }
            return value
        }
        func checkedPlaceholder() throws(LibraryError) -> String? {
            guard let placeholder else { return nil }
            guard placeholder.hasPrefix("@"), placeholder.count > 1 else {
                throw .invalidChange(index: index, reason: "placeholder '\(placeholder)' must begin with '@'")
            }
            return placeholder
        }
        func checkedTitle() throws(LibraryError) -> String {
            let title = try required(title, "title")
            guard !title.isEmpty, !title.contains("\0") else {
                throw .invalidChange(index: index, reason: "a title must be non-empty text without NUL")
            }
            return title
        }
        switch op {
        case "createAsset":
            return .createAsset(
                AssetCreation(
                    files: try checkedAssetFiles(index: index), placeholder: try checkedPlaceholder(),
                    id: try checkedChosenId(index: index)))
        case "updateAsset":
            if case .set(let location) = location, !location.isValid {
                throw .invalidChange(index: index, reason: "location is off the globe")
            }
            return .updateAsset(target: try required(target, "target"), try checkedAssetUpdate(index: index))
        case "deleteAssets":
            return .deleteAssets(ids: try required(ids, "ids"), permanently: permanently ?? false)
        case "restoreAssets":
            return .restoreAssets(ids: try required(ids, "ids"))
        case "mergeDuplicates":
            let ids = try required(ids, "ids")
            guard Set(ids).count >= 2, Set(ids).count == ids.count else {
                throw .invalidChange(index: index, reason: "mergeDuplicates needs two or more different ids")
            }
            return .mergeDuplicates(ids: ids)
        case "createAlbum":
            return .createAlbum(
                title: try checkedTitle(), placeholder: try checkedPlaceholder(), parent: parent,
                id: try checkedChosenId(index: index))
        case "createFolder":
            return .createFolder(
                title: try checkedTitle(), placeholder: try checkedPlaceholder(), parent: parent,
                id: try checkedChosenId(index: index))
        case "updateCollection":
            return .updateCollection(target: try required(target, "target"), title: try checkedTitle())
        case "deleteCollections":
            return .deleteCollections(ids: try required(ids, "ids"))
        case "addAssets":
            return .addAssets(target: try required(target, "target"), ids: try required(ids, "ids"))
        case "insertAssets":
            let ids = try required(ids, "ids"), indexes = try required(indexes, "indexes")
            guard ids.count == indexes.count else {
                throw .invalidChange(index: index, reason: "insertAssets needs one index per id")
            }
            return .insertAssets(target: try required(target, "target"), ids: ids, indexes: indexes)
        case "removeAssets":
            return .removeAssets(target: try required(target, "target"), ids: try required(ids, "ids"))
        case "moveAssets":
            return .moveAssets(
                target: try required(target, "target"), indexes: try required(indexes, "indexes"),
                toIndex: try required(toIndex, "toIndex"))
        case "addChildCollections":
            return .addChildCollections(target: try required(target, "target"), ids: try required(ids, "ids"))
        case "removeChildCollections":
            return .removeChildCollections(target: try required(target, "target"), ids: try required(ids, "ids"))
        case "moveChildCollections":
            return .moveChildCollections(
                target: try required(target, "target"), indexes: try required(indexes, "indexes"),
                toIndex: try required(toIndex, "toIndex"))
        case "editAsset":
            let adjustment = try required(adjustment, "adjustment")
            guard renderedPath == nil || upload == nil else {
                throw .invalidChange(index: index, reason: "editAsset takes a 'renderedPath' or an 'upload', not both")
            }
            let rendersItself = renderedPath == nil && upload == nil
            do {
                try adjustment.validate(rendering: rendersItself)
            } catch {
                throw .invalidChange(index: index, reason: error.reason)
            }
            if rendersItself, target?.hasPrefix("@") == true {
                throw .invalidChange(
                    index: index, reason: "an asset created in the same call has no original to render from yet")
            }
            return .editAsset(
                target: try required(target, "target"), renderedPath: renderedPath, adjustment: adjustment,
                renderedUpload: upload)
        case "revertAsset":
            return .revertAsset(target: try required(target, "target"))
        default:
            throw .invalidChange(index: index, reason: "unknown op '\(op)'")
        }
    }
}
