/// Core Media's `CMTimeValue`.
public typealias CMTimeValue = Int64
/// Core Media's `CMTimeScale`.
public typealias CMTimeScale = Int32

/// Core Media's `CMTime`: a time as a rational number, `value / timescale` seconds.
public struct CMTime: Sendable, Hashable, CustomStringConvertible {
    public var value: CMTimeValue
    public var timescale: CMTimeScale

    public init(value: CMTimeValue, timescale: CMTimeScale) {
        self.value = value
        self.timescale = timescale
    }

    /// `seconds` at `preferredTimescale` units a second.
    public init(seconds: Double, preferredTimescale: CMTimeScale) {
        self.init(value: CMTimeValue((seconds * Double(preferredTimescale)).rounded()), timescale: preferredTimescale)
    }

    public static let zero = CMTime(value: 0, timescale: 1)
    /// A time that is not valid (a timescale of 0).
    public static let invalid = CMTime(value: 0, timescale: 0)

    /// The time in seconds; NaN for an invalid time.
    public var seconds: Double { timescale == 0 ? .nan : Double(value) / Double(timescale) }

    public var isValid: Bool { timescale != 0 }

    public var description: String { "CMTime(\(value)/\(timescale) = \(seconds) s)" }
}

/// Core Media's `CMTimeGetSeconds`.
public func CMTimeGetSeconds(_ time: CMTime) -> Float64 {
    time.seconds
}

/// Core Media's `CMTimeMake`.
public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime {
    CMTime(value: value, timescale: timescale)
}

/// Core Media's `CMTimeMakeWithSeconds`.
public func CMTimeMakeWithSeconds(_ seconds: Float64, preferredTimescale: Int32) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}
