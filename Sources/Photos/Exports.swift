// PhotoKit's video requests give AVFoundation's types; on Apple's platforms `import Photos` brings them too.
@_exported import AVFoundation
// PhotoKit's `contentType` members give UniformTypeIdentifiers' `UTType`; an app imports it, and `Photos` brings it.
@_exported import UniformTypeIdentifiers
