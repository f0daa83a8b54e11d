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

    /// The fingerprint of an upright picture's `width`×`height` pixels of one byte a band, in rows: grey (1 band),
    /// grey and alpha (2), sRGB (3, whose luma counts) or sRGB and alpha (4); what is transparent counts as white, as
    /// a viewer shows it on a white page. Nil when the picture is smaller than 8×8 or has no structure.
    public static func fingerprint(
        ofPixels pixels: UnsafeRawBufferPointer, width: Int, height: Int, bands: Int
    ) -> ImageFingerprint? {
        precondition((1...4).contains(bands))
        precondition(pixels.count == width * height * bands)
        guard width >= minimumSide, height >= minimumSide else { return nil }
        return fingerprint(ofSquare: boxAveraged(pixels, width: width, height: height, bands: bands))
    }

    /// The fingerprint of an upright picture's `width`×`height` grey levels (one byte each, in rows); nil when it is
    /// smaller than 8×8 or has no structure.
    public static func fingerprint(ofGrey pixels: UnsafeRawBufferPointer, width: Int, height: Int) -> ImageFingerprint?
    {
        fingerprint(ofPixels: pixels, width: width, height: height, bands: 1)
    }

    /// The grey levels (sRGB's luma; what is transparent as white), in rows, averaged over `side`×`side` equal areas:
    /// each output pixel the mean of the part of the picture it covers, fractions of pixels weighed by how much of
    /// them it covers. Averages keep the coarse structure steadier across re-compression than interpolating filters do.
    ///
    /// One pass over the pixels: each row's running sums give the grey of any stretch of it as the difference of two
    /// sums (with the fraction of a pixel cut at either end), and the 32 stretches' sums, run down the rows, give
    /// each cell's in the same way.
    static func boxAveraged(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, bands: Int) -> [Double] {
        let across = borders(along: width), down = borders(along: height)
        // `stretches[y * side + cell]`: the grey of row y within the cell's columns, in grey levels × pixels.
        var stretches = [Double](repeating: 0, count: height * side)
        var rowSums = [Int](repeating: 0, count: width + 1)
        rowSums.withUnsafeMutableBufferPointer { sums in
            let bytes = pixels.assumingMemoryBound(to: UInt8.self)
            // Each row's running sums of its grey levels, `grey(at)` the grey of the pixel at byte `at` in thousandths
            // of a level; then the row's stretches. One loop for each layout, so that the compiler makes each tight.
            @inline(__always) func sumRows(_ grey: (Int) -> UInt32) {
                for y in 0..<height {
                    let row = y * width * bands
                    var running = 0
                    for x in 0..<width {
                        running &+= Int(grey(row &+ bands &* x))
                        sums[x + 1] = running
                    }
                    for cell in 0..<side {
                        stretches[y * side + cell] =
                            (sum(upTo: across[cell + 1], of: width) { Double(sums[$0]) }
                                - sum(upTo: across[cell], of: width) { Double(sums[$0]) }) / 1000
                    }
                }
            }
            @inline(__always) func luma(_ at: Int) -> UInt32 {
                299 &* UInt32(bytes[at]) &+ 587 &* UInt32(bytes[at &+ 1]) &+ 114 &* UInt32(bytes[at &+ 2])
            }
            @inline(__always) func overWhite(_ grey: UInt32, _ alpha: UInt8) -> UInt32 {
                (grey * UInt32(alpha) + 255_000 * (255 - UInt32(alpha))) / 255
            }
            switch bands {
            case 1: sumRows { 1000 &* UInt32(bytes[$0]) }
            case 2: sumRows { overWhite(1000 &* UInt32(bytes[$0]), bytes[$0 + 1]) }
            case 3: sumRows(luma)
            default: sumRows { overWhite(luma($0), bytes[$0 + 3]) }
            }
        }
        let area = Double(width) / Double(side) * Double(height) / Double(side)
        var square = [Double](repeating: 0, count: side * side)
        var columnSums = [Double](repeating: 0, count: height + 1)
        for x in 0..<side {
            for y in 0..<height { columnSums[y + 1] = columnSums[y] + stretches[y * side + x] }
            for cell in 0..<side {
                square[cell * side + x] =
                    (sum(upTo: down[cell + 1], of: height) { columnSums[$0] }
                        - sum(upTo: down[cell], of: height) { columnSums[$0] }) / area
            }
        }
        return square
    }

    /// The `side + 1` borders of the equal cells along a side of `length` pixels, in pixels.
    private static func borders(along length: Int) -> [Double] {
        (0...side).map { Double($0) * Double(length) / Double(side) }
    }

    /// What `count` values add up to at `position`, the value it falls in counted by the fraction of it before
    /// `position`; `runningSum(i)` is what the first i add up to.
    @inline(__always)
    private static func sum(upTo position: Double, of count: Int, _ runningSum: (Int) -> Double) -> Double {
        let whole = min(count, Int(position))
        guard whole < count else { return runningSum(count) }
        return runningSum(whole) + (position - Double(whole)) * (runningSum(whole + 1) - runningSum(whole))
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
