import Foundation
import PhotoModel

/// An image's perceptual fingerprint (CONTRACT §17) from its grey levels: a DCT hash. The picture is averaged down to
/// 32×32; of its two-dimensional cosine transform, the 64 lowest varying frequencies are kept (the 8×8 lowest but the
/// constant one, and the ninth horizontal one), and each bit says whether its coefficient lies above their median.
/// Coarse structure decides the bits, so a re-saved, re-compressed, resized or re-tagged copy keeps nearly all of
/// them. Leaving the constant coefficient out (the common pHash keeps it, as a bit that is always set) gives every
/// bit information; averaging rather than interpolating keeps the bits steadier across re-compression. Both were
/// chosen on the calibration corpus (Benchmarks/REPORT.md).
public enum PerceptualHash {
    /// The side of the grey square the transform reads.
    static let side = 32
    /// The frequencies kept along each axis.
    static let frequencies = 8
    /// Pictures smaller than this along either side get no fingerprint.
    public static let minimumSide = 8
    /// The least root-mean-square of the 64 low varying coefficients (0–255 grey levels, orthonormal transform: about
    /// one grey level of coarse variation) a picture needs for a fingerprint. Below it, a blank or single-colour
    /// picture's bits would come from compression noise, and every blank frame would be "similar".
    static let minimumStructure = 4.0

    /// The fingerprint of an upright picture's `width`×`height` pixels of one byte a band, in rows: grey (1 band) or
    /// sRGB (3 bands, whose luma counts); nil when it is smaller than 8×8 or has no structure.
    public static func fingerprint(
        ofPixels pixels: UnsafeRawBufferPointer, width: Int, height: Int, bands: Int
    ) -> ImageFingerprint? {
        precondition(bands == 1 || bands == 3)
        guard bands == 3 else { return fingerprint(ofGrey: pixels, width: width, height: height) }
        let grey = (0..<width * height).map { index in
            let (red, green, blue) = (
                UInt32(pixels[3 * index]), UInt32(pixels[3 * index + 1]), UInt32(pixels[3 * index + 2])
            )
            return UInt8((299 * red + 587 * green + 114 * blue + 500) / 1000)
        }
        return grey.withUnsafeBytes { fingerprint(ofGrey: $0, width: width, height: height) }
    }

    /// The fingerprint of an upright picture's `width`×`height` grey levels (one byte each, in rows); nil when it is
    /// smaller than 8×8 or has no structure.
    public static func fingerprint(ofGrey pixels: UnsafeRawBufferPointer, width: Int, height: Int) -> ImageFingerprint?
    {
        precondition(pixels.count == width * height)
        guard width >= minimumSide, height >= minimumSide else { return nil }
        return fingerprint(ofSquare: boxAveraged(pixels, width: width, height: height))
    }

    /// The grey levels, in rows, averaged over `side`×`side` equal areas: each output pixel the mean of the part of the
    /// picture it covers, fractions of pixels weighed by how much of them it covers. Averages keep the coarse
    /// structure steadier across re-compression than interpolating filters do.
    static func boxAveraged(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int) -> [Double] {
        // For each cell along a side of `length` pixels, the pixels it covers and the share of each in it.
        func cells(along length: Int) -> [[(index: Int, weight: Double)]] {
            let step = Double(length) / Double(side)
            return (0..<side).map { cell in
                let start = Double(cell) * step, end = start + step
                return (Int(start)..<min(length, Int(end.rounded(.up)))).map { index in
                    (index, (min(end, Double(index + 1)) - max(start, Double(index))) / step)
                }
            }
        }
        let columns = cells(along: width), rows = cells(along: height)
        var narrowed = [Double](repeating: 0, count: height * side)
        for y in 0..<height {
            for (cell, column) in columns.enumerated() {
                narrowed[y * side + cell] = column.reduce(0) {
                    $0 + Double(pixels[y * width + $1.index]) * $1.weight
                }
            }
        }
        var square = [Double](repeating: 0, count: side * side)
        for (cell, row) in rows.enumerated() {
            for x in 0..<side {
                square[cell * side + x] = row.reduce(0) { $0 + narrowed[$1.index * side + x] * $1.weight }
            }
        }
        return square
    }

    /// The fingerprint of `side`×`side` grey levels in rows; nil when they have no structure.
    static func fingerprint(ofSquare pixels: [Double]) -> ImageFingerprint? {
        let varying = varyingFrequencies(of: pixels)
        let structure = (varying.reduce(0) { $0 + $1 * $1 } / Double(varying.count)).squareRoot()
        guard structure >= minimumStructure else { return nil }
        let sorted = varying.sorted()
        let median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        var bits: UInt64 = 0
        for (index, coefficient) in varying.enumerated() where coefficient > median { bits |= 1 << UInt64(index) }
        return ImageFingerprint(bits: bits)
    }

    /// The 64 lowest varying coefficients of the orthonormal two-dimensional DCT-II of the grey square: the 8×8
    /// lowest row by row without the constant one, then the ninth horizontal frequency of the first row.
    static func varyingFrequencies(of pixels: [Double]) -> [Double] {
        precondition(pixels.count == side * side)
        let horizontal = frequencies + 1
        // Along each row first, then down the columns of that result.
        var rows = [Double](repeating: 0, count: side * horizontal)
        for y in 0..<side {
            for u in 0..<horizontal {
                var sum = 0.0
                for x in 0..<side { sum += pixels[y * side + x] * cosines[u * side + x] }
                rows[y * horizontal + u] = sum
            }
        }
        func coefficient(_ v: Int, _ u: Int) -> Double {
            var sum = 0.0
            for y in 0..<side { sum += rows[y * horizontal + u] * cosines[v * side + y] }
            return sum
        }
        var varying: [Double] = []
        varying.reserveCapacity(64)
        for v in 0..<frequencies {
            for u in 0..<frequencies where u != 0 || v != 0 { varying.append(coefficient(v, u)) }
        }
        varying.append(coefficient(0, frequencies))
        return varying
    }

    /// The DCT-II basis, scaled to be orthonormal: `cosines[k * side + n]` for frequency k at sample n.
    private static let cosines: [Double] = (0...frequencies).flatMap { k in
        (0..<side).map { n in
            let scale = (k == 0 ? 1.0 : 2.0).squareRoot() / Double(side).squareRoot()
            return scale * cos(Double.pi * Double(2 * n + 1) * Double(k) / Double(2 * side))
        }
    }
}
