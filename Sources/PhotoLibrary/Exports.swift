@_exported import PhotoModel
@_exported import PhotolibProtocol

/// How `importFiles` brings files into the library: `copy`, `move` or `reference` (indexed in place).
public typealias ImportMode = SourceMode
