import Foundation
import PhotoLibrary

/// What kind of asset a `PHAsset` is to a picker: where it comes from, how it plays, what may be done to it.
extension PHAsset {
    /// Where the asset comes from: the user's library, for every asset here.
    public var sourceType: PHAssetSourceType { .typeUserLibrary }

    /// How the asset is shown: a still, an animated image, a Live Photo, a video.
    public var playbackStyle: PHAsset.PlaybackStyle {
        switch mediaType {
        case .image where mediaSubtypes.contains(.photoLive): .livePhoto
        case .image where asset.mediaSubtypes.contains(.photoAnimated): .imageAnimated
        case .image: .image
        case .video: .video
        case .audio, .unknown: .unsupported
        }
    }

    /// PhotoKit's `PHAsset.PlaybackStyle`, with Apple's raw values.
    public enum PlaybackStyle: Int, Sendable {
        case unsupported = 0
        case image = 1
        case imageAnimated = 2
        case livePhoto = 3
        case video = 4
        case videoLooping = 5
    }

    /// The type of the data the asset shows: its edit's rendered file when it has one (read from the daemon when asked,
    /// one call), else its primary file's, by the name it was imported with.
    public var contentType: UTType {
        let kind: UTType =
            switch mediaType {
            case .image: .image
            case .video: .movie
            case .audio: .audio
            case .unknown: .data
            }
        if hasAdjustments, mediaType == .image {
            let assetId = localIdentifier
            let input = try? LibraryClient.shared.call { library throws(PhotoLibraryError) in
                try await library.requestContentEditingInput(for: assetId)
            }
            if let input { return UniformType.type(forMIMEType: input.mimeType) }
        }
        let fileExtension = (originalFilename as NSString).pathExtension
        return UTType(filenameExtension: fileExtension, conformingTo: kind) ?? kind
    }

    /// Whether the asset shows an edit: `.userAdjusted` when it has one, else `.none` (cameras' own automatic
    /// adjustments are in the pixels of their files here).
    public var adjustmentsState: PHAsset.AdjustmentsState { hasAdjustments ? .userAdjusted : .none }

    /// PhotoKit's `PHAsset.AdjustmentsState`, with Apple's raw values.
    public enum AdjustmentsState: Int, Sendable {
        case none = 0
        case userAdjusted = 2
        case cameraAutoAdjusted = 3
    }

    /// Which assets of a burst were picked: none here (the library records no picks).
    public var burstSelectionTypes: PHAssetBurstSelectionType { [] }

    /// How a Live Photo plays (loop, bounce, long exposure): `.none` here, since the phone keeps that in its own
    /// library, not in the files.
    public var playbackVariation: PHAsset.PlaybackVariation { .none }

    /// PhotoKit's `PHAsset.PlaybackVariation`, with Apple's raw values.
    public enum PlaybackVariation: Int, Sendable {
        case none = 0
        case autoloop = 1
        case mirror = 2
        case longExposure = 3
    }

    /// The one private key pickers read on every iOS version: `filename`, the primary file's name when it was imported;
    /// nil for any other key.
    public func value(forKey key: String) -> Any? {
        key == "filename" ? originalFilename : nil
    }

    /// Whether this user may make the change: any change needs a read-write grant; content edits are for photos.
    public func canPerform(_ editOperation: PHAssetEditOperation) -> Bool {
        guard PHPhotoLibrary.authorizationStatus() == .authorized else { return false }
        return editOperation != .content || mediaType == .image
    }
}

/// PhotoKit's `PHAssetBurstSelectionType`, with Apple's bits.
public struct PHAssetBurstSelectionType: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let autoPick = PHAssetBurstSelectionType(rawValue: 1 << 0)
    public static let userPick = PHAssetBurstSelectionType(rawValue: 1 << 1)
}
