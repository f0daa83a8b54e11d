import Foundation

/// Places bucketed into cells of half a degree of latitude by half a degree of longitude, each kept as a unit vector
/// in `Float`: the nearest place to a point is searched for in the cells its circle touches, compared by chord
/// length, which orders points as the great-circle distance does.
struct PlaceGrid: Sendable {
    static let earthRadiusKilometres = 6371.0088
    private static let cellDegrees = 0.5
    private static let rows = 360
    private static let columns = 720

    /// Where each cell's entries start (`rows * columns + 1` offsets: cell `i` is `cellStarts[i]..<cellStarts[i+1]`).
    private let cellStarts: [Int32]
    /// x, y, z of each entry, in cell order.
    private let positions: [Float]
    /// The value given for each entry, in cell order.
    private let values: [Int32]

    /// A grid of the points `latitudes[i]`, `longitudes[i]` (degrees, in range), each answering `values[i]`.
    init(latitudes: [Double], longitudes: [Double], values: [Int32]) {
        let cells = latitudes.indices.map { Self.cell(latitude: latitudes[$0], longitude: longitudes[$0]) }
        var starts = [Int32](repeating: 0, count: Self.rows * Self.columns + 1)
        for cell in cells { starts[cell + 1] += 1 }
        for index in 1..<starts.count { starts[index] += starts[index - 1] }
        var next = starts
        var positions = [Float](repeating: 0, count: cells.count * 3)
        var sortedValues = [Int32](repeating: 0, count: cells.count)
        for (point, cell) in cells.enumerated() {
            let entry = Int(next[cell])
            next[cell] += 1
            let vector = UnitVector(latitude: latitudes[point], longitude: longitudes[point])
            positions[entry * 3] = Float(vector.x)
            positions[entry * 3 + 1] = Float(vector.y)
            positions[entry * 3 + 2] = Float(vector.z)
            sortedValues[entry] = values[point]
        }
        self.cellStarts = starts
        self.positions = positions
        self.values = sortedValues
    }

    /// The value of the entry nearest to the point (degrees, in range) within `kilometres`, or nil when none is.
    func nearest(latitude: Double, longitude: Double, within kilometres: Double) -> Int32? {
        let angle = kilometres / Self.earthRadiusKilometres
        let chord = 2 * sin(angle / 2)
        var nearestEntry: Int? = nil
        var nearestDistance = chord * chord
        let query = UnitVector(latitude: latitude, longitude: longitude)
        positions.withUnsafeBufferPointer { positions in
            for cell in cells(around: latitude, longitude, angle: angle) {
                for entry in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) {
                    let dx = Double(positions[entry * 3]) - query.x
                    let dy = Double(positions[entry * 3 + 1]) - query.y
                    let dz = Double(positions[entry * 3 + 2]) - query.z
                    let distance = dx * dx + dy * dy + dz * dz
                    if distance < nearestDistance {
                        nearestDistance = distance
                        nearestEntry = entry
                    }
                }
            }
        }
        return nearestEntry.map { values[$0] }
    }

    /// The cells a circle of `angle` radians around the point touches, across the antimeridian and over a pole.
    private func cells(around latitude: Double, _ longitude: Double, angle: Double) -> [Int] {
        let margin = 1e-6
        let latitudeDelta = angle * 180 / .pi + margin
        let firstRow = Self.row(latitude - latitudeDelta)
        let lastRow = Self.row(latitude + latitudeDelta)
        var columnRange = 0..<Self.columns
        let reach = sin(angle) / cos(latitude * .pi / 180)
        if abs(latitude) + latitudeDelta < 90, reach < 1 {
            let longitudeDelta = asin(reach) * 180 / .pi + margin
            let first = Int(((longitude - longitudeDelta + 180) / Self.cellDegrees).rounded(.down))
            let last = Int(((longitude + longitudeDelta + 180) / Self.cellDegrees).rounded(.down))
            if last - first + 1 < Self.columns { columnRange = first..<(last + 1) }
        }
        var cells: [Int] = []
        cells.reserveCapacity((lastRow - firstRow + 1) * columnRange.count)
        for row in firstRow...lastRow {
            for column in columnRange {
                cells.append(row * Self.columns + (column % Self.columns + Self.columns) % Self.columns)
            }
        }
        return cells
    }

    private static func row(_ latitude: Double) -> Int {
        min(rows - 1, max(0, Int(((latitude + 90) / cellDegrees).rounded(.down))))
    }

    private static func cell(latitude: Double, longitude: Double) -> Int {
        let column = Int(((longitude + 180) / cellDegrees).rounded(.down)) % columns
        return row(latitude) * columns + column
    }
}
