import CFaceRecognition
import PhotoModel
import PhotolibLocations
import Synchronization

/// A face found in an image, in the image's own coordinates as fractions of its size.
public struct FoundFace: Sendable, Hashable {
    /// Where the face is.
    public var box: NormalizedRect
    /// The five points dlib aligns a face by (the corners of the eyes and the base of the nose), x then y.
    public var landmarks: [(x: Double, y: Double)] {
        stride(from: 0, to: landmarkCoordinates.count, by: 2).map {
            (landmarkCoordinates[$0], landmarkCoordinates[$0 + 1])
        }
    }
    /// How sure the detector is (HOG scores from about 0 up, CNN scores from about -0.5 up).
    public var confidence: Double
    /// The 128 numbers that place the face among others: two photos of one person are closer than 0.6 (Euclidean
    /// distance) for nearly every pair, as dlib's model was trained.
    public var descriptor: [Float]
    var landmarkCoordinates: [Double]

    /// The Euclidean distance between the two faces' descriptors.
    public func distance(to other: FoundFace) -> Float {
        FaceFinder.distance(descriptor, other.descriptor)
    }
}

/// What a search of an image found: the faces described (the largest first, up to the limit asked) and how many
/// faces the image holds in all.
public struct FoundFaces: Sendable, Hashable {
    public var faces: [FoundFace]
    public var count: Int
}

/// Why the face models cannot be used or an image not searched.
public struct FaceRecognitionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
}

/// Finds faces in pictures and describes each with dlib (`libdlib`, Debian's build): the HOG detector built into
/// dlib or its CNN (MMOD) detector, the 5-point shape predictor to align each face, and the ResNet that gives its
/// 128-number descriptor. The models are the public-domain files dlib's author released (`face_recognition_models`
/// on PyPI carries them); the 68-point predictor in that package is trained on data that forbids commercial use and
/// is never read.
public final class FaceFinder: Sendable {
    /// Which detector finds the faces.
    public enum Detector: Sendable, Hashable {
        /// dlib's HOG detector: fast on a processor, frontal faces.
        case hog
        /// dlib's CNN detector (`mmod_human_face_detector.dat`): turned faces too, slower.
        case cnn
    }

    static let shapePredictorFile = "shape_predictor_5_face_landmarks.dat"
    static let recognitionModelFile = "dlib_face_recognition_resnet_model_v1.dat"
    static let cnnDetectorFile = "mmod_human_face_detector.dat"

    /// dlib's networks keep scratch buffers: one search at a time.
    private let models: Mutex<ModelHandle>

    /// Loads the models from `directory`.
    public init(modelsIn directory: String, detector: Detector = .hog) throws(FaceRecognitionError) {
        var error = [CChar](repeating: 0, count: 512)
        let loaded = face_models_load(
            Path.join(directory, Self.shapePredictorFile), Path.join(directory, Self.recognitionModelFile),
            detector == .cnn ? Path.join(directory, Self.cnnDetectorFile) : nil, &error, error.count)
        guard let loaded else {
            throw FaceRecognitionError(description: "cannot load the face models in \(directory): \(Self.text(error))")
        }
        models = Mutex(ModelHandle(pointer: loaded))
    }

    deinit {
        models.withLock { face_models_free($0.pointer) }
    }

    /// The folder of the models: `PHOTOLIBD_FACE_MODELS`, else the checkout's (`scripts/setup` puts them there), else
    /// the package's (`photolibd-models`).
    public static func defaultModelDirectory(environment: [String: String]) -> String {
        if let path = environment["PHOTOLIBD_FACE_MODELS"], !path.isEmpty { return path }
        if let checkout = SourceCheckout.ofRunningProgram() { return Path.join(checkout, ".build/face-models") }
        return "/usr/share/photolibd/models"
    }

    /// The faces in an 8-bit RGB picture of `width` × `height` pixels (`pixels` holds `width * 3` bytes a row), the
    /// largest `limit` described. Blocking: seconds for a large picture, so give it a downscaled one.
    public func faces(inRGB pixels: [UInt8], width: Int, height: Int, limit: Int = 50) throws(FaceRecognitionError)
        -> FoundFaces
    {
        guard width > 0, height > 0, pixels.count == width * height * 3 else {
            throw FaceRecognitionError(
                description: "\(pixels.count) bytes are not an RGB picture of \(width) × \(height)")
        }
        var found = [face_found](repeating: face_found(), count: max(limit, 0))
        var error = [CChar](repeating: 0, count: 512)
        let count = models.withLock { models in
            face_models_find(
                models.pointer, pixels, Int32(width), Int32(height), &found, Int32(found.count), &error, error.count)
        }
        guard count >= 0 else { throw FaceRecognitionError(description: Self.text(error)) }
        let (w, h) = (Double(width), Double(height))
        let faces = found.prefix(Int(min(count, Int32(found.count)))).map { face in
            var face = face
            let box = NormalizedRect(
                x: max(0, Double(face.left)) / w, y: max(0, Double(face.top)) / h,
                width: (min(w, Double(face.right)) - max(0, Double(face.left))) / w,
                height: (min(h, Double(face.bottom)) - max(0, Double(face.top))) / h)
            let landmarks = withUnsafeBytes(of: &face.landmarks) { Array($0.bindMemory(to: Float.self)) }
            let descriptor = withUnsafeBytes(of: &face.descriptor) { Array($0.bindMemory(to: Float.self)) }
            return FoundFace(
                box: box, confidence: Double(face.confidence), descriptor: descriptor,
                landmarkCoordinates: landmarks.enumerated().map { Double($1) / ($0 % 2 == 0 ? w : h) })
        }
        return FoundFaces(faces: faces, count: Int(count))
    }

    /// The text in a C buffer, up to its first NUL.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The Euclidean distance between two descriptors.
    public static func distance(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
    }
}

/// The models dlib loaded. @unchecked: the pointer is used only inside `FaceFinder.models`' lock.
private struct ModelHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
