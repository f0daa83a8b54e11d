import Foundation
import PhotoLibrary

// iOS 27's photographer's metadata: the stars, keywords and caption of an asset, which the daemon keeps as section 14
// of the contract says and writes to the asset's XMP sidecar, where darktable, digiKam and Lightroom read them.

extension PHAsset {
    /// PhotoKit's `PHAsset.Rating` (`PHAssetRating`): no stars up to five, with Apple's raw values.
    public enum Rating: Int, Sendable {
        case unset = 0
        case one = 1
        case two = 2
        case three = 3
        case four = 4
        case five = 5
    }

    /// The asset's stars. A rejected photo (−1, as darktable and Lightroom mark it) is `.unset`: Apple's ratings have
    /// no rejection.
    public var rating: Rating { Rating(rawValue: asset.annotations.rating) ?? .unset }

    /// The asset's keywords, caption and original file name, carried by every asset fetched (one call at most).
    public var extendedMetadata: PHAssetExtendedMetadata {
        PHAssetExtendedMetadata(
            caption: asset.annotations.caption, originalFilename: asset.originalFilename,
            keywords: asset.annotations.keywords)
    }
}

/// PhotoKit's `PHAssetExtendedMetadata`: what an asset says beyond its `PHAsset` properties.
public final class PHAssetExtendedMetadata: NSObject, Sendable {
    /// The asset's caption (XMP `dc:description`, IPTC Caption-Abstract); nil without one.
    public let caption: String?
    /// The name of the asset's primary file when it was imported.
    public let originalFilename: String?
    /// The asset's keywords; a hierarchy's levels are joined by `|` (`Places|Paris`), as `lr:hierarchicalSubject`.
    public let keywords: [String]

    public override convenience init() {
        self.init(caption: nil, originalFilename: nil, keywords: [])
    }

    init(caption: String?, originalFilename: String?, keywords: [String]) {
        self.caption = caption
        self.originalFilename = originalFilename
        self.keywords = keywords
    }
}

extension PHAssetChangeRequest {
    /// The asset's stars; setting `.unset` clears them (and a rejection).
    public var rating: PHAsset.Rating {
        get { newRating ?? asset?.rating ?? .unset }
        set {
            append(ChangeRequest(op: "updateAsset", target: target, rating: newValue.rawValue))
            newRating = newValue
        }
    }

    /// The asset's caption; nil or empty text clears it.
    public var caption: String? {
        get { newCaption ?? asset?.extendedMetadata.caption }
        set {
            append(ChangeRequest(op: "updateAsset", target: target, caption: newValue ?? ""))
            newCaption = .some(newValue?.isEmpty == true ? nil : newValue)
        }
    }

    /// Adds a keyword; one the asset has already is left as it is.
    public func addKeyword(_ keyword: String) {
        append(ChangeRequest(op: "updateAsset", target: target, addKeywords: [keyword]))
    }

    /// Removes a keyword; one the asset does not have is ignored.
    public func removeKeyword(_ keyword: String) {
        append(ChangeRequest(op: "updateAsset", target: target, removeKeywords: [keyword]))
    }
}
