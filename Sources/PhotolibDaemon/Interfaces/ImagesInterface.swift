import Imaging
import Synchronization
import Varlink

/// `io.photolibd.Images`: PHImageManager's requests and PHCachingImageManager's hints over varlink.
final class ImagesInterface: VarlinkInterface {
    let name = "io.photolibd.Images"
    let description = imagesInterfaceDescription
    private let images: ImageManager
    private let authorization: Authorization
    private let requestCount = Atomic<Int>(0)

    init(images: ImageManager, authorization: Authorization) {
        self.images = images
        self.authorization = authorization
    }

    func handle(_ call: VarlinkCall, context: VarlinkCallContext, replies: VarlinkReplyWriter) async throws {
        do {
            guard ["RequestImage", "RequestImageData", "StartCaching", "StopCaching"].contains(call.methodName) else {
                throw VarlinkError.methodNotFound(call.method)
            }
            guard authorization.status(of: context.peer).canRead else { throw ImageError.permissionDenied }
            switch call.methodName {
            case "RequestImage":
                try await requestImage(try call.decodeParameters(RequestImageParameters.self).validated(), call: call,
                                       replies: replies)
            case "RequestImageData":
                let parameters = try call.decodeParameters(RequestImageDataParameters.self)
                try ImageRequestVersion.check(parameters.version)
                let original = try await images.originalFile(of: parameters.assetId)
                try await replies.send(RequestImageDataReply(
                    path: original.path, mimeType: original.mimeType, orientation: original.orientation,
                    fileSize: Int(original.fileSize), originalFilename: original.originalFilename))
            case "StartCaching":
                let parameters = try call.decodeParameters(StartCachingParameters.self)
                guard parameters.targetWidth > 0 else { throw ImageError.invalidParameter("targetWidth") }
                guard parameters.targetHeight > 0 else { throw ImageError.invalidParameter("targetHeight") }
                let target = PixelSize(width: parameters.targetWidth, height: parameters.targetHeight)
                try await images.startCaching(parameters.assetIds, targetSize: target,
                                              contentMode: parameters.contentMode ?? .aspectFit)
                try await replies.send(EmptyReply())
            default:
                images.stopCaching(try call.decodeParameters(StopCachingParameters.self).assetIds)
                try await replies.send(EmptyReply())
            }
        } catch let error as ImageError {
            throw error.varlinkError
        }
    }

    private func requestImage(_ request: ImageRequest, call: VarlinkCall, replies: VarlinkReplyWriter) async throws {
        let requestId = String(requestCount.add(1, ordering: .relaxed).newValue)
        try await images.requestImage(request, streams: call.more) { image in
            try await replies.send(RequestImageReply(
                requestId: requestId, path: image.rendition.path, width: image.rendition.width,
                height: image.rendition.height, mimeType: image.rendition.mimeType, isDegraded: image.isDegraded),
                continues: image.isDegraded && call.more && request.deliveryMode == .opportunistic)
        }
    }
}

extension ImageError {
    /// The `io.photolibd.Images` error for this failure.
    var varlinkError: VarlinkError {
        let prefix = "io.photolibd.Images."
        switch self {
        case .notFound(let assetId):
            return VarlinkError(prefix + "NotFound", parameters: ["id": .string(assetId)])
        case .unavailable(let assetId, let reason):
            return VarlinkError(prefix + "ImageUnavailable",
                                parameters: ["assetId": .string(assetId), "reason": .string(reason)])
        case .permissionDenied:
            return VarlinkError(prefix + "PermissionDenied")
        case .invalidParameter(let parameter):
            return .invalidParameter(parameter)
        }
    }
}

/// PhotoKit's `PHImageRequestOptionsVersion` names; the library keeps no edits, so each gives the original.
enum ImageRequestVersion {
    static let names: Set<String> = ["current", "unadjusted", "original"]

    static func check(_ version: String?) throws(ImageError) {
        guard version.map(names.contains) ?? true else { throw .invalidParameter("version") }
    }
}

struct RequestImageParameters: Decodable {
    var assetId: String
    var targetWidth: Int?
    var targetHeight: Int?
    var contentMode: ImageRequest.ContentMode?
    var resizeMode: ImageRequest.ResizeMode?
    var deliveryMode: ImageRequest.DeliveryMode?
    var normalizedCropRect: NormalizedRect?
    var version: String?

    /// The request, or `invalidParameter` naming what is wrong. Both sizes absent, or both -1 (PhotoKit's
    /// PHImageManagerMaximumSize), ask for the whole image; otherwise both must be positive.
    func validated() throws(ImageError) -> ImageRequest {
        var targetSize: PixelSize?
        switch (targetWidth, targetHeight) {
        case (nil, nil), (-1, -1):
            targetSize = nil
        case (let width?, let height?):
            guard width > 0 else { throw .invalidParameter("targetWidth") }
            guard height > 0 else { throw .invalidParameter("targetHeight") }
            targetSize = PixelSize(width: width, height: height)
        case (nil, _):
            throw .invalidParameter("targetWidth")
        case (_, nil):
            throw .invalidParameter("targetHeight")
        }
        if let crop = normalizedCropRect, !crop.isInsideUnitSquare {
            throw .invalidParameter("normalizedCropRect")
        }
        try ImageRequestVersion.check(version)
        return ImageRequest(assetId: assetId, targetSize: targetSize, contentMode: contentMode ?? .aspectFit,
                            resizeMode: resizeMode ?? .fast, deliveryMode: deliveryMode ?? .opportunistic,
                            crop: normalizedCropRect)
    }
}

struct RequestImageReply: Encodable, Sendable {
    var requestId: String
    var path: String
    var width: Int
    var height: Int
    var mimeType: String
    var isDegraded: Bool
}

struct RequestImageDataParameters: Decodable {
    var assetId: String
    var version: String?
}

struct RequestImageDataReply: Encodable, Sendable {
    var path: String
    var mimeType: String
    var orientation: Int
    var fileSize: Int
    var originalFilename: String
}

struct StartCachingParameters: Decodable {
    var assetIds: [String]
    var targetWidth: Int
    var targetHeight: Int
    var contentMode: ImageRequest.ContentMode?
}

struct StopCachingParameters: Decodable {
    var assetIds: [String]?
}
