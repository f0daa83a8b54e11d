/// How far an `importFiles` call has got.
public struct ImportProgress: Sendable, Hashable, Codable {
    /// Paths handled so far.
    public var processed: Int
    /// Paths in the call.
    public var total: Int
}

/// The outcome of an `importFiles` call: one entry per path, in the order given.
public struct ImportResult: Sendable, Hashable, Codable {
    public var files: [ImportedFile]
}
