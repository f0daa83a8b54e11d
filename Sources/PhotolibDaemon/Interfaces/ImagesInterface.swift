import DaemonCore
import Imaging
import PhotoModel
import PhotolibProtocol
import Synchronization
import Varlink

/// `io.photolibd.Images`: PHImageManager's requests and PHCachingImageManager's hints over varlink.
final class ImagesInterface: VarlinkInterface {
    let name = PhotolibInterface.images.rawValue
    let description = PhotolibInterface.images.definition
    private let images: ImageManager
    private let authorization: Authorization
    private let servedFiles: ServedFiles
    private let videoExports: ExportVideoCall
    private let requestCount = Atomic<Int>(0)

    init(images: ImageManager, authorization: Authorization, servedFiles: ServedFiles, videoExports: VideoExports) {
        self.images = images
        self.authorization = authorization
        self.servedFiles = servedFiles
        self.videoExports = ExportVideoCall(exports: videoExports, servedFiles: servedFiles)
    }

    func acceptsUpgrade(_ methodName: String) -> Bool {
        methodName == ImagesMethod.readFile.rawValue
    }

    func handle(_ call: VarlinkCall, context: VarlinkCallContext, replies: VarlinkReplyWriter) async throws {
        do {
            guard let method = ImagesMethod(rawValue: call.methodName) else {
                throw VarlinkError.methodNotFound(call.method)
            }
            guard authorization.access(of: context.caller).canRead else { throw ImageError.permissionDenied }
            switch method {
            case .requestImage:
                try await requestImage(
                    try call.decodeParameters(RequestImageParameters.self).validated(streams: call.more),
                    call: call, context: context, replies: replies)
            case .requestImageData:
                let parameters = try call.decodeParameters(RequestImageDataParameters.self)
                let file = try await images.file(of: parameters.assetId, version: parameters.version ?? .current)
                servedFiles.name(file.path, to: context.caller)
                try await replies.send(
                    ImageData(
                        path: file.path, mimeType: file.mimeType, orientation: file.orientation,
                        fileSize: Int(file.fileSize), originalFilename: file.originalFilename))
            case .requestContentEditingInput:
                let parameters = try call.decodeParameters(RequestContentEditingInputParameters.self)
                let input = try await images.contentEditingInput(
                    of: parameters.assetId, canHandle: parameters.canHandle ?? [])
                servedFiles.name(input.fullSizeImagePath, to: context.caller)
                try await replies.send(input)
            case .startCaching:
                let parameters = try call.decodeParameters(StartCachingParameters.self)
                guard parameters.targetWidth > 0 else { throw ImageError.invalidParameter("targetWidth") }
                guard parameters.targetHeight > 0 else { throw ImageError.invalidParameter("targetHeight") }
                let target = PixelSize(width: parameters.targetWidth, height: parameters.targetHeight)
                try await images.startCaching(
                    parameters.assetIds, targetSize: target,
                    contentMode: parameters.contentMode ?? .aspectFit)
                try await replies.send(EmptyReply())
            case .stopCaching:
                images.stopCaching(try call.decodeParameters(StopCachingParameters.self).assetIds)
                try await replies.send(EmptyReply())
            case .readFile:
                try await readFile(try call.decodeParameters(), call: call, context: context, replies: replies)
            case .exportVideo:
                try await videoExports.respond(
                    try call.decodeParameters(), call: call, context: context, replies: replies)
            }
        } catch let error as ImageError {
            throw error.varlinkError
        }
    }

    private func requestImage(
        _ request: ImageRequest, call: VarlinkCall, context: VarlinkCallContext,
        replies: VarlinkReplyWriter
    ) async throws {
        let requestId = String(requestCount.add(1, ordering: .relaxed).newValue)
        try await images.requestImage(request) { image in
            servedFiles.name(image.rendition.path, to: context.caller)
            try await replies.send(
                ImageResult(
                    requestId: requestId, path: image.rendition.path, width: image.rendition.width,
                    height: image.rendition.height, mimeType: image.rendition.mimeType, isDegraded: image.isDegraded),
                continues: image.isDegraded && request.delivery.continuesAfterDegraded)
        }
    }
}

extension ImagesInterface {
    /// `ReadFile`: the sizes, and with `upgrade` the bytes, of a file a reply named to this caller.
    private func readFile(
        _ parameters: ReadFileParameters, call: VarlinkCall, context: VarlinkCallContext,
        replies: VarlinkReplyWriter
    ) async throws {
        guard servedFiles.wasNamed(parameters.path, to: context.caller),
            let file = try await OpenedFile.open(parameters.path)
        else { throw ImageError.notFound(assetId: parameters.path) }
        defer { file.close() }
        let offset = parameters.offset ?? 0
        guard (0...file.size).contains(offset) else { throw ImageError.invalidParameter("offset") }
        let length = min(parameters.length ?? file.size, file.size - offset)
        guard length >= 0 else { throw ImageError.invalidParameter("length") }
        try await replies.send(ReadFileReply(fileSize: file.size, offset: offset, length: length))
        if call.upgrade {
            try await replies.sendFile(file.descriptor, offset: offset, length: length)
        }
    }
}

extension RequestImageParameters {
    /// The request of a call that takes several replies when `streams`, or `invalidParameter` naming what is wrong.
    /// Both sizes absent, or both -1 (PhotoKit's PHImageManagerMaximumSize), ask for the whole image; otherwise both
    /// must be positive.
    func validated(streams: Bool) throws(ImageError) -> ImageRequest {
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
        let crop = normalizedCropRect.map { NormalizedRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        if let crop, !crop.isInsideUnitSquare {
            throw .invalidParameter("normalizedCropRect")
        }
        return ImageRequest(
            assetId: assetId, targetSize: targetSize, contentMode: contentMode ?? .aspectFit,
            resizeMode: resizeMode ?? .fast, delivery: ImageDelivery(deliveryMode, streams: streams),
            crop: crop, version: version ?? .current)
    }
}
