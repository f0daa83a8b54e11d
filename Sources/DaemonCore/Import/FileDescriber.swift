import Foundation
import Imaging
import LibraryStore
import MediaProbe
import NIOPosix
import PhotoModel

/// Reads what a media file says about itself (libvips and exiftool for stills, LibRaw for RAW files, ffprobe for
/// videos and audio) and makes the asset draft it stands for, before its content hash and stored path are known.
package struct FileDescriber: Sendable {
    package let metadataReader: ImageMetadataReader
    let rawReader: RawImageReader
    let mediaProber: MediaProber
    /// Where the async reads run: file work never runs on an event loop.
    let threadPool: NIOThreadPool

    package init(
        metadataReader: ImageMetadataReader, rawReader: RawImageReader, mediaProber: MediaProber,
        threadPool: NIOThreadPool
    ) {
        self.metadataReader = metadataReader
        self.rawReader = rawReader
        self.mediaProber = mediaProber
        self.threadPool = threadPool
    }

    /// Every metadata tag of a file, read on the thread pool.
    package func embeddedMetadata(ofFileAt path: String) async throws -> AssetMetadata {
        try await threadPool.runIfActive { try EmbeddedMetadataReader().read(path: path) }
    }

    /// The camera data of an asset's primary file, read on the thread pool; nil when the file cannot be read.
    func cameraData(of asset: AssetAwaitingCameraData) async -> CameraData? {
        try? await threadPool.runIfActive { [self] () throws -> CameraData in
            switch asset.mediaType {
            case .image where MediaFileKind(fileName: asset.path) == .raw:
                try rawReader.info(ofFileAt: asset.path).camera
            case .image: try metadataReader.readMetadata(atPath: asset.path).camera
            case .video: try mediaProber.probe(path: asset.path).camera
            default: CameraData()
            }
        }
    }

    /// A RAW file's capture time with its offset where the camera wrote one: libvips reads the EXIF of TIFF-based
    /// RAW files, LibRaw reads no offsets, so exiftool (when installed) reads the others' (CR3, RAF, ORF, RW2…).
    private func captureTime(ofRAWAt path: String, libRaw: RawImageInfo, libvips: ImageMetadata?) -> ExifDateTime? {
        if let time = libvips?.dateTimeOriginal, time.utcOffsetSeconds != nil { return time }
        let fallback = libvips?.dateTimeOriginal ?? libRaw.captureTime
        guard let exif = try? EmbeddedMetadataReader().read(path: path).exif, let text = exif["DateTimeOriginal"],
            let time = ExifDateTime(
                exifText: text, subseconds: exif["SubsecTimeOriginal"], offset: exif["OffsetTimeOriginal"])
        else { return fallback }
        return time
    }

    /// The smart albums Apple keeps by rule for videos: slow motion and time-lapse, as the file's frame rates tell.
    private static func videoSubtypes(of info: MediaInfo) -> MediaSubtypes {
        var subtypes: MediaSubtypes = []
        if info.isSlowMotion { subtypes.insert(.videoHighFrameRate) }
        if info.isTimeLapse { subtypes.insert(.videoTimelapse) }
        return subtypes
    }

    /// The photo asset a still or RAW file makes, before its content hash and stored path are known.
    private func photoDraft(
        filename: String, clues: CaptureDate.Clues, mimeType: String, fileSize: Int64, path: String,
        size: (width: Int, height: Int, orientation: Int), captureTime: ExifDateTime?, xmpTime: ExifDateTime?,
        gpsTime: Date?, location: GeoLocation?, camera: CameraData
    ) -> AssetDraft {
        let (date, source) = CaptureDate.resolve(exif: captureTime, xmp: xmpTime, gps: gpsTime, clues: clues)
        let isScreenshot = filename.hasPrefix("Screenshot") || filename.hasPrefix("Screen Shot")
        var draft = AssetDraft(
            mediaType: .image, mediaSubtypes: isScreenshot ? .photoScreenshot : [],
            pixelWidth: size.width, pixelHeight: size.height, orientation: size.orientation,
            creationDate: date, creationDateSource: source,
            location: location.map { Location(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude) },
            contentHash: "",
            resources: [
                DraftResource(
                    type: .photo, originalFilename: filename, mimeType: mimeType, fileSize: fileSize,
                    path: path, isOwnedByLibrary: false)
            ])
        draft.camera = camera
        return draft
    }

    /// What `read` returns; its failure fails the file's import with the reader's reason.
    private func failingImport<Value, Failure: Error & CustomStringConvertible>(
        _ read: () throws(Failure) -> Value
    ) throws(ImportFailure) -> Value {
        do {
            return try read()
        } catch {
            throw .failed(error.description)
        }
    }

    /// The asset a file makes on its own, before its content hash and stored path are known; a still's metadata is
    /// read from `contents` when the file was read into memory. Blocking.
    func describe(
        path: String, kind: MediaFileKind, filename: String, identity: FileIdentity,
        contents: EncodedBuffer?
    ) throws -> AssetDraft {
        let fileExtension = (filename as NSString).pathExtension.lowercased()
        let clues = CaptureDate.Clues(fileName: filename, modificationTime: identity.modificationSeconds)
        switch kind {
        case .image:
            let metadata = try failingImport { () throws(ImagingError) in
                if let contents {
                    try metadataReader.readMetadata(of: contents, atPath: path)
                } else {
                    try metadataReader.readMetadata(atPath: path)
                }
            }
            var draft = photoDraft(
                filename: filename, clues: clues, mimeType: metadata.mimeType, fileSize: identity.size,
                path: path, size: (metadata.pixelWidth, metadata.pixelHeight, metadata.orientation),
                captureTime: metadata.dateTimeOriginal, xmpTime: metadata.xmpCreateDate,
                gpsTime: metadata.gpsTimestamp,
                location: metadata.location, camera: metadata.camera)
            // The smart albums Apple keeps by rule: animated images, portraits with depth.
            if metadata.pageCount > 1 { draft.mediaSubtypes.insert(.photoAnimated) }
            if let rendered = metadata.customRendered, rendered == 7 || rendered == 8 {
                draft.mediaSubtypes.insert(.photoDepthEffect)
            }
            // An iPhone burst's frames share Apple's BurstUUID; the store shows one frame per burst by default.
            draft.burstIdentifier = metadata.burstIdentifier
            return draft
        case .raw:
            // LibRaw knows the image a RAW file decodes to; libvips reads the EXIF of the TIFF-based ones (DNG, NEF,
            // CR2, ARW...), with the offsets and sub-seconds LibRaw does not give.
            let raw = try failingImport { () throws(ImagingError) in try rawReader.info(ofFileAt: path) }
            let exif = try? metadataReader.readMetadata(atPath: path)
            return photoDraft(
                filename: filename, clues: clues, mimeType: MediaFileKind.rawMimeTypes[fileExtension]!,
                fileSize: identity.size, path: path, size: (raw.pixelWidth, raw.pixelHeight, raw.orientation),
                captureTime: captureTime(ofRAWAt: path, libRaw: raw, libvips: exif), xmpTime: exif?.xmpCreateDate,
                gpsTime: exif?.gpsTimestamp,
                location: exif?.location ?? raw.location,
                camera: (exif?.camera).map { $0.filling(from: raw.camera) } ?? raw.camera)
        case .video, .audio:
            let info = try failingImport { () throws(MediaProbeError) in try mediaProber.probe(path: path) }
            let isVideo = info.kind == .video && kind == .video
            let (date, source) = CaptureDate.resolve(media: info, clues: clues)
            let mimeType =
                isVideo ? MediaFileKind.videoMimeTypes[fileExtension] : MediaFileKind.audioMimeTypes[fileExtension]
            var draft = AssetDraft(
                mediaType: isVideo ? .video : .audio,
                mediaSubtypes: isVideo ? Self.videoSubtypes(of: info) : [],
                pixelWidth: isVideo ? info.pixelWidth : 0, pixelHeight: isVideo ? info.pixelHeight : 0, orientation: 1,
                creationDate: date, creationDateSource: source, location: info.location, duration: info.duration,
                contentHash: "",
                resources: [
                    DraftResource(
                        type: isVideo ? .video : .audio, originalFilename: filename,
                        mimeType: mimeType ?? "application/octet-stream", fileSize: identity.size,
                        path: path, isOwnedByLibrary: false)
                ])
            draft.camera = info.camera
            return draft
        }
    }
}
