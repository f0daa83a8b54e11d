import Foundation

/// Mean positions on the sphere: the average of the points' unit vectors, so that points either side of the
/// antimeridian (179.9° and -179.9°) average to 180°, not 0°.
public enum SphericalMean {
    /// The mean position of `points` in degrees, or nil when there are none, one is not finite, or their vectors
    /// cancel (two antipodes).
    public static func position(
        of points: [(latitude: Double, longitude: Double)]
    ) -> (latitude: Double, longitude: Double)? {
        var sum = UnitVector(x: 0, y: 0, z: 0)
        for point in points {
            let vector = UnitVector(latitude: point.latitude, longitude: point.longitude)
            sum = UnitVector(x: sum.x + vector.x, y: sum.y + vector.y, z: sum.z + vector.z)
        }
        let length = (sum.x * sum.x + sum.y * sum.y + sum.z * sum.z).squareRoot()
        guard length.isFinite, length > 1e-9 else { return nil }
        let latitude = asin(max(-1, min(1, sum.z / length))) * 180 / .pi
        let longitude = atan2(sum.y, sum.x) * 180 / .pi
        return (latitude, longitude)
    }
}

/// A point on the unit sphere, from latitude and longitude in degrees.
struct UnitVector {
    var x: Double
    var y: Double
    var z: Double

    init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    init(latitude: Double, longitude: Double) {
        let latitude = latitude * .pi / 180
        let longitude = longitude * .pi / 180
        self.init(x: cos(latitude) * cos(longitude), y: cos(latitude) * sin(longitude), z: sin(latitude))
    }
}
