/// What the camera recorded about how a photo was taken (EXIF), each value nil when the file does not say.
public struct CameraData: Sendable, Hashable, Codable {
    /// EXIF Make, e.g. "Canon".
    public var make: String?
    /// EXIF Model, e.g. "Canon EOS R5".
    public var model: String?
    /// EXIF LensModel.
    public var lensModel: String?
    /// The aperture as an f-number, e.g. 2.8.
    public var fNumber: Double?
    /// The exposure time in seconds, e.g. 0.008 for 1/125 s.
    public var exposureTime: Double?
    /// The ISO speed (EXIF PhotographicSensitivity).
    public var iso: Int?
    /// The lens's focal length in millimetres.
    public var focalLength: Double?
    /// The focal length a 35 mm film camera would need for the same view, in millimetres.
    public var focalLength35mm: Int?

    public init(make: String? = nil, model: String? = nil, lensModel: String? = nil, fNumber: Double? = nil,
                exposureTime: Double? = nil, iso: Int? = nil, focalLength: Double? = nil, focalLength35mm: Int? = nil) {
        self.make = make
        self.model = model
        self.lensModel = lensModel
        self.fNumber = fNumber
        self.exposureTime = exposureTime
        self.iso = iso
        self.focalLength = focalLength
        self.focalLength35mm = focalLength35mm
    }
}

extension CameraData {
    /// These values, each one missing taken from `other`.
    public func filling(from other: CameraData) -> CameraData {
        CameraData(make: make ?? other.make, model: model ?? other.model, lensModel: lensModel ?? other.lensModel,
                   fNumber: fNumber ?? other.fNumber, exposureTime: exposureTime ?? other.exposureTime, iso: iso ?? other.iso,
                   focalLength: focalLength ?? other.focalLength, focalLength35mm: focalLength35mm ?? other.focalLength35mm)
    }
}
