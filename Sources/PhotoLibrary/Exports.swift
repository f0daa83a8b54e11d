@_exported import PhotoModel
import PhotolibConfig

/// How `importFiles` brings files into the library: `copy`, `move` or `reference` (indexed in place).
public typealias ImportMode = SourceMode
