/// One file of an asset a `createAsset` change makes: a path the caller can read, or an upload it sent
/// (`Import.Upload`), with the resource it becomes.
public struct NewAssetFile: Sendable, Hashable, Codable {
    /// Which resource of the asset the file is; nil for the primary file given on its own, whose kind the file tells.
    public var type: ResourceType?
    public var path: String?
    public var upload: String?
    /// The name the file had (its extension tells the format of an upload); the file's own name by default.
    public var originalFilename: String?
    /// PhotoKit's type identifier of the file (`public.jpeg`), which tells the format when no name does.
    public var uniformTypeIdentifier: String?

    public init(type: ResourceType? = nil, path: String? = nil, upload: String? = nil, originalFilename: String? = nil,
                uniformTypeIdentifier: String? = nil) {
        self.type = type
        self.path = path
        self.upload = upload
        self.originalFilename = originalFilename
        self.uniformTypeIdentifier = uniformTypeIdentifier
    }
}

/// A `createAsset` change: the asset's files, the placeholder later changes of the call name it by, and the id the
/// client chose for it.
public struct AssetCreation: Sendable, Hashable {
    /// The primary file (photo, video or audio) first, then a Live Photo's `pairedVideo` or a RAW+JPEG pair's
    /// `alternatePhoto`.
    public var files: [NewAssetFile]
    public var placeholder: String?
    /// A lowercase UUID the client chose, which becomes the asset's id.
    public var id: String?

    public init(files: [NewAssetFile], placeholder: String? = nil, id: String? = nil) {
        self.files = files
        self.placeholder = placeholder
        self.id = id
    }

    /// An asset made from one file the caller can read.
    public init(path: String, placeholder: String? = nil, id: String? = nil) {
        self.init(files: [NewAssetFile(path: path)], placeholder: placeholder, id: id)
    }
}

/// Identifiers a client may choose for the objects it creates.
public enum ChosenIdentifier {
    /// Whether `id` is a UUID in lowercase hexadecimal, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`: the form of the
    /// library's own ids.
    public static func isWellFormed(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard bytes.count == 36 else { return false }
        for (position, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(position) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                else { return false }
            }
        }
        return true
    }
}

extension ChangeRequest {
    /// The `id` of a create op, checked: nil, or a well-formed lowercase UUID.
    func checkedChosenId(index: Int) throws(LibraryError) -> String? {
        guard let id else { return nil }
        guard ChosenIdentifier.isWellFormed(id) else {
            throw .invalidChange(index: index, reason: "id '\(id)' is not a lowercase UUID")
        }
        return id
    }

    /// The files of a `createAsset` change: its `resources`, or its `path` or `upload` alone. Each file is a path or
    /// an upload; one primary file (photo, video or audio); a `pairedVideo` or an `alternatePhoto` only beside a photo.
    func checkedAssetFiles(index: Int) throws(LibraryError) -> [NewAssetFile] {
        func invalid(_ reason: String) -> LibraryError { .invalidChange(index: index, reason: reason) }
        let files: [NewAssetFile]
        if let resources, !resources.isEmpty {
            guard path == nil, upload == nil else { throw invalid("createAsset takes 'resources' or a 'path' or 'upload', not both") }
            guard resources.allSatisfy({ $0.type != nil }) else { throw invalid("every resource needs its 'type'") }
            files = resources
        } else {
            files = [NewAssetFile(path: path, upload: upload)]
        }
        for file in files where (file.path == nil) == (file.upload == nil) {
            throw invalid("createAsset needs a 'path' or an 'upload' for each file, one of the two")
        }
        let types = files.compactMap(\.type)
        guard Set(types).count == types.count else { throw invalid("a resource type is given twice") }
        let primaries = types.filter { [.photo, .video, .audio].contains($0) }
        guard primaries.count <= 1 else { throw invalid("an asset has one photo, video or audio resource, not several") }
        if types.contains(where: { $0 == .pairedVideo || $0 == .alternatePhoto }) {
            guard primaries == [.photo] else { throw invalid("a pairedVideo or alternatePhoto needs a photo resource beside it") }
        } else if !types.isEmpty, primaries.isEmpty {
            throw invalid("an asset needs a photo, video or audio resource")
        }
        // The primary file first: the asset's kind, dates and size come from it.
        func isPrimary(_ file: NewAssetFile) -> Bool { file.type.map { [.photo, .video, .audio].contains($0) } ?? true }
        return files.filter(isPrimary) + files.filter { !isPrimary($0) }
    }
}
