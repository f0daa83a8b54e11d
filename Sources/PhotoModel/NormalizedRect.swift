/// A rectangle in the 0...1 coordinates of the upright image: PhotoKit's `normalizedCropRect`.
public struct NormalizedRect: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the rectangle has an area and lies inside the unit square.
    public var isInsideUnitSquare: Bool {
        let tolerance = 1e-9
        return [x, y, width, height].allSatisfy(\.isFinite) && x >= 0 && y >= 0 && width > 0 && height > 0
            && x + width <= 1 + tolerance && y + height <= 1 + tolerance
    }
}
