import Foundation
import PhotoLibrary

/// PhotoKit's `PHAuthorizationStatus`, with Apple's raw values.
public enum PHAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorized = 3
    case limited = 4

    init(_ status: AuthorizationStatus) {
        switch status {
        case .authorized: self = .authorized
        case .restricted: self = .restricted
        case .denied: self = .denied
        case .notDetermined: self = .notDetermined
        }
    }
}

/// PhotoKit's `PHAccessLevel`.
public enum PHAccessLevel: Int, Sendable {
    case addOnly = 1
    case readWrite = 2
}

/// PhotoKit's `PHAssetMediaType`.
public enum PHAssetMediaType: Int, Sendable {
    case unknown = 0
    case image = 1
    case video = 2
    case audio = 3

    init(_ mediaType: MediaType) {
        switch mediaType {
        case .image: self = .image
        case .video: self = .video
        case .audio: self = .audio
        case .unknown: self = .unknown
        }
    }

    var wireValue: MediaType {
        switch self {
        case .image: .image
        case .video: .video
        case .audio: .audio
        case .unknown: .unknown
        }
    }
}

/// PhotoKit's `PHAssetMediaSubtype`, with Apple's bits.
public struct PHAssetMediaSubtype: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let photoPanorama = PHAssetMediaSubtype(rawValue: 1 << 0)
    public static let photoHDR = PHAssetMediaSubtype(rawValue: 1 << 1)
    public static let photoScreenshot = PHAssetMediaSubtype(rawValue: 1 << 2)
    public static let photoLive = PHAssetMediaSubtype(rawValue: 1 << 3)
    public static let photoDepthEffect = PHAssetMediaSubtype(rawValue: 1 << 4)
    public static let spatialMedia = PHAssetMediaSubtype(rawValue: 1 << 10)
    public static let videoStreamed = PHAssetMediaSubtype(rawValue: 1 << 16)
    public static let videoHighFrameRate = PHAssetMediaSubtype(rawValue: 1 << 17)
    public static let videoTimelapse = PHAssetMediaSubtype(rawValue: 1 << 18)
    /// A recording of a device's screen; no file says so, so the library never sets it.
    public static let videoScreenRecording = PHAssetMediaSubtype(rawValue: 1 << 19)
    public static let videoCinematic = PHAssetMediaSubtype(rawValue: 1 << 21)

    /// The library's subtypes, which have PhotoKit's bits (its own, animated and self-portrait, left out).
    init(_ subtypes: MediaSubtypes) {
        self.init(rawValue: UInt(subtypes.subtracting(.libraryOwn).rawValue))
    }
}

/// PhotoKit's `PHAssetSourceType`, with Apple's bits.
public struct PHAssetSourceType: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let typeUserLibrary = PHAssetSourceType(rawValue: 1 << 0)
    public static let typeCloudShared = PHAssetSourceType(rawValue: 1 << 1)
    public static let typeiTunesSynced = PHAssetSourceType(rawValue: 1 << 2)
}

/// PhotoKit's `PHAssetCollectionType`.
public enum PHAssetCollectionType: Int, Sendable {
    case album = 1
    case smartAlbum = 2
    case moment = 3
}

/// PhotoKit's `PHAssetCollectionSubtype`, with Apple's raw values.
public enum PHAssetCollectionSubtype: Int, Sendable {
    case albumRegular = 2
    case albumSyncedEvent = 3
    case albumSyncedFaces = 4
    case albumSyncedAlbum = 5
    case albumImported = 6
    case albumMyPhotoStream = 100
    case albumCloudShared = 101
    case smartAlbumGeneric = 200
    case smartAlbumPanoramas = 201
    case smartAlbumVideos = 202
    case smartAlbumFavorites = 203
    case smartAlbumTimelapses = 204
    case smartAlbumAllHidden = 205
    case smartAlbumRecentlyAdded = 206
    case smartAlbumBursts = 207
    case smartAlbumSlomoVideos = 208
    case smartAlbumUserLibrary = 209
    case smartAlbumSelfPortraits = 210
    case smartAlbumScreenshots = 211
    case smartAlbumDepthEffect = 212
    case smartAlbumLivePhotos = 213
    case smartAlbumAnimated = 214
    case smartAlbumLongExposures = 215
    case smartAlbumUnableToUpload = 216
    case smartAlbumRAW = 217
    case smartAlbumCinematic = 218
    case smartAlbumSpatial = 219
    /// Screen recordings: always empty here (no file says it is one).
    case smartAlbumScreenRecordings = 220
    /// Recently Deleted, which PhotoKit keeps private (its value there is the same).
    case smartAlbumRecentlyDeleted = 1_000_000_201
    case any = 9_223_372_036_854_775_807

    init(_ subtype: CollectionSubtype) {
        switch subtype {
        case .albumRegular: self = .albumRegular
        case .smartAlbumUserLibrary: self = .smartAlbumUserLibrary
        case .smartAlbumFavorites: self = .smartAlbumFavorites
        case .smartAlbumVideos: self = .smartAlbumVideos
        case .smartAlbumRecentlyAdded: self = .smartAlbumRecentlyAdded
        case .smartAlbumAllHidden: self = .smartAlbumAllHidden
        case .smartAlbumPanoramas: self = .smartAlbumPanoramas
        case .smartAlbumScreenshots: self = .smartAlbumScreenshots
        case .smartAlbumLivePhotos: self = .smartAlbumLivePhotos
        case .smartAlbumBursts: self = .smartAlbumBursts
        case .smartAlbumRecentlyDeleted: self = .smartAlbumRecentlyDeleted
        case .smartAlbumRAW: self = .smartAlbumRAW
        case .smartAlbumSelfPortraits: self = .smartAlbumSelfPortraits
        case .smartAlbumSlomoVideos: self = .smartAlbumSlomoVideos
        case .smartAlbumTimelapses: self = .smartAlbumTimelapses
        case .smartAlbumAnimated: self = .smartAlbumAnimated
        case .smartAlbumDepthEffect: self = .smartAlbumDepthEffect
        case .smartAlbumLongExposures: self = .smartAlbumLongExposures
        // Apple's Duplicates album has no public subtype.
        case .moment, .folderRegular, .smartAlbumDuplicates: self = .any
        }
    }

    /// The library's subtype; nil for `.any` and for subtypes the library does not keep.
    var wireValue: CollectionSubtype? {
        guard self != .any else { return nil }
        return CollectionSubtype.allCases.first { PHAssetCollectionSubtype($0) == self }
    }
}

/// PhotoKit's `PHCollectionListType`.
public enum PHCollectionListType: Int, Sendable {
    case momentList = 1
    case folder = 2
    case smartFolder = 3
}

/// PhotoKit's `PHCollectionListSubtype`.
public enum PHCollectionListSubtype: Int, Sendable {
    case momentListCluster = 1
    case momentListYear = 2
    case regularFolder = 100
    case smartFolderEvents = 200
    case smartFolderFaces = 201
    case any = 9_223_372_036_854_775_807
}

/// PhotoKit's `PHAssetResourceType`.
public enum PHAssetResourceType: Int, Sendable {
    case photo = 1
    case video = 2
    case audio = 3
    case alternatePhoto = 4
    case fullSizePhoto = 5
    case fullSizeVideo = 6
    case adjustmentData = 7
    case adjustmentBasePhoto = 8
    case pairedVideo = 9
    case fullSizePairedVideo = 10
    case adjustmentBasePairedVideo = 11
    case adjustmentBaseVideo = 12
    case photoProxy = 19
}

/// A place on the globe: the stand-in for CoreLocation's `CLLocationCoordinate2D`.
public struct CLLocationCoordinate2D: Sendable, Hashable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees

    public init() { self.init(latitude: 0, longitude: 0) }

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

public typealias CLLocationDegrees = Double
public typealias CLLocationDistance = Double

/// An asset's location: the stand-in for CoreLocation's `CLLocation`, which Linux lacks.
public final class PHLocation: NSObject, Sendable {
    public let coordinate: CLLocationCoordinate2D
    /// Metres above sea level; 0 when unknown, as in CoreLocation.
    public let altitude: CLLocationDistance
    /// Negative when the altitude is unknown, as in CoreLocation.
    public let verticalAccuracy: Double
    public let horizontalAccuracy: Double
    public let timestamp: Date

    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0,
            horizontalAccuracy: 0, verticalAccuracy: -1, timestamp: Date())
    }

    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: Double,
        verticalAccuracy: Double, timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.timestamp = timestamp
    }

    convenience init(_ location: Location) {
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: location.latitude, longitude: location.longitude),
            altitude: location.altitude ?? 0, horizontalAccuracy: 0,
            verticalAccuracy: location.altitude == nil ? -1 : 0, timestamp: Date())
    }

    var wireValue: Location {
        Location(
            latitude: coordinate.latitude, longitude: coordinate.longitude,
            altitude: verticalAccuracy < 0 ? nil : altitude)
    }
}

/// Code written for Apple's platforms names the location type `CLLocation`.
public typealias CLLocation = PHLocation

/// ImageIO's `CGImagePropertyOrientation`: an EXIF orientation, 1...8.
public enum CGImagePropertyOrientation: UInt32, Sendable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8
}

// `PHPredicate(format:)` takes these as arguments, as `NSPredicate(format:)` does on Apple's platforms; Linux
// Foundation does not make them `CVarArg`. Their C encoding is never used: `PHPredicate` reads the values.
extension Date: @retroactive CVarArg { public var _cVarArgEncoding: [Int] { [] } }
extension NSDate: @retroactive CVarArg { public var _cVarArgEncoding: [Int] { [] } }
extension NSNumber: @retroactive CVarArg { public var _cVarArgEncoding: [Int] { [] } }
extension NSArray: @retroactive CVarArg { public var _cVarArgEncoding: [Int] { [] } }
extension Array: @retroactive CVarArg { public var _cVarArgEncoding: [Int] { [] } }
