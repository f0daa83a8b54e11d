// PhotoKit's video requests give AVFoundation's types; on Apple's platforms `import Photos` brings them too.
@_exported import AVFoundation
