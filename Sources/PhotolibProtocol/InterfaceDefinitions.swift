/// The varlink interfaces photolibd serves: their names, their methods and their IDL, which
/// `org.varlink.service.GetInterfaceDescription` returns as written in `Interfaces/*.varlink`.
public enum PhotolibInterface: String, CaseIterable, Sendable {
    case library = "io.photolibd.Library"
    case images = "io.photolibd.Images"
    case importer = "io.photolibd.Import"

    /// The interface's IDL text.
    public var definition: String {
        let bytes: [UInt8] =
            switch self {
            case .library: PackageResources.io_photolibd_Library_varlink
            case .images: PackageResources.io_photolibd_Images_varlink
            case .importer: PackageResources.io_photolibd_Import_varlink
            }
        var text = String(decoding: bytes, as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}

/// A method of one of photolibd's interfaces.
public protocol PhotolibMethod: RawRepresentable<String>, CaseIterable, Sendable {
    static var interface: PhotolibInterface { get }
}

extension PhotolibMethod {
    /// The name a call carries: `io.photolibd.Library.FetchAssets`.
    public var qualifiedName: String { "\(Self.interface.rawValue).\(rawValue)" }
}

/// The methods of `io.photolibd.Library`.
public enum LibraryMethod: String, PhotolibMethod {
    case fetchAssets = "FetchAssets"
    case fetchCollections = "FetchCollections"
    case performChanges = "PerformChanges"
    case observe = "Observe"
    case updateObservation = "UpdateObservation"
    case fetchPersistentChanges = "FetchPersistentChanges"
    case authorizationStatus = "AuthorizationStatus"
    case fetchAssetMetadata = "FetchAssetMetadata"
    case fetchPlaces = "FetchPlaces"
    case fetchDuplicates = "FetchDuplicates"

    public static let interface = PhotolibInterface.library
}

/// The methods of `io.photolibd.Images`.
public enum ImagesMethod: String, PhotolibMethod {
    case requestImage = "RequestImage"
    case requestImageData = "RequestImageData"
    case startCaching = "StartCaching"
    case stopCaching = "StopCaching"
    case requestContentEditingInput = "RequestContentEditingInput"
    case readFile = "ReadFile"
    case exportVideo = "ExportVideo"

    public static let interface = PhotolibInterface.images
}

/// The methods of `io.photolibd.Import`.
public enum ImportMethod: String, PhotolibMethod {
    case importFiles = "ImportFiles"
    case status = "Status"
    case listSources = "ListSources"
    case addSource = "AddSource"
    case removeSource = "RemoveSource"
    case upload = "Upload"

    public static let interface = PhotolibInterface.importer
}

/// The errors photolibd's interfaces declare, by the name they carry after the interface's name.
public enum PhotolibErrorName: String, CaseIterable, Sendable {
    case notFound = "NotFound"
    case invalidPredicate = "InvalidPredicate"
    case invalidChange = "InvalidChange"
    case tokenExpired = "TokenExpired"
    case permissionDenied = "PermissionDenied"
    case internalError = "InternalError"
    case imageUnavailable = "ImageUnavailable"
    case invalidSource = "InvalidSource"
    case metadataUnavailable = "MetadataUnavailable"
    case serviceStopping = "ServiceStopping"
    case notEnoughSpace = "NotEnoughSpace"

    /// The qualified name in `interface`: `io.photolibd.Library.NotFound`.
    public func qualified(in interface: PhotolibInterface) -> String { "\(interface.rawValue).\(rawValue)" }

    /// The error a qualified name stands for, whatever its interface.
    public init?(qualifiedName: String) {
        guard let last = qualifiedName.split(separator: ".").last else { return nil }
        self.init(rawValue: String(last))
    }
}
