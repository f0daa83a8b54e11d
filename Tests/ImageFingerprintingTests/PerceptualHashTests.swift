import Foundation
import PhotoModel
import Testing

@testable import ImageFingerprinting

/// The DCT hash on grey levels made here: copies stay within a few bits, blank and tiny pictures get none.
struct PerceptualHashTests {
    /// A `width`×`height` picture of a few soft shapes (the structure a photo's coarse layout has), with `noise` grey
    /// levels of deterministic noise added.
    static func picture(width: Int, height: Int, contrast: Double = 1, noise: Int = 0, seed: UInt64 = 1) -> [UInt8] {
        var state = seed
        return (0..<height).flatMap { y in
            (0..<width).map { x in
                let (u, v) = (Double(x) / Double(width), Double(y) / Double(height))
                let shapes = 60 * sin(3 * u + 1) + 40 * cos(5 * v) + (hypot(u - 0.3, v - 0.6) < 0.2 ? 50 : 0)
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let jitter = noise == 0 ? 0 : Int(state >> 33) % (2 * noise + 1) - noise
                return UInt8(clamping: Int(128 + contrast * shapes) + jitter)
            }
        }
    }

    static func fingerprint(_ pixels: [UInt8], width: Int, height: Int) -> ImageFingerprint? {
        pixels.withUnsafeBytes { PerceptualHash.fingerprint(ofGrey: $0, width: width, height: height) }
    }

    @Test func aNoisyOrHalfSizedCopyStaysWithinTwoBitsAndTheNegativeIsFarAway() throws {
        let original = try #require(Self.fingerprint(Self.picture(width: 341, height: 256), width: 341, height: 256))
        let noisy = try #require(
            Self.fingerprint(Self.picture(width: 341, height: 256, noise: 3), width: 341, height: 256))
        let half = try #require(Self.fingerprint(Self.picture(width: 170, height: 128), width: 170, height: 128))
        #expect(original.distance(to: noisy) <= 2)
        #expect(original.distance(to: half) <= 2)
        let negative = try #require(
            Self.fingerprint(Self.picture(width: 341, height: 256).map { 255 - $0 }, width: 341, height: 256))
        #expect(original.distance(to: negative) >= 60)
    }

    @Test func blankFaintAndTinyPicturesHaveNone() {
        #expect(Self.fingerprint([UInt8](repeating: 200, count: 64 * 48), width: 64, height: 48) == nil)
        // Compression noise on a blank frame is no structure.
        #expect(
            Self.fingerprint(Self.picture(width: 64, height: 48, contrast: 0, noise: 2), width: 64, height: 48) == nil)
        #expect(Self.fingerprint(Self.picture(width: 64, height: 48, contrast: 0.01), width: 64, height: 48) == nil)
        #expect(Self.fingerprint(Self.picture(width: 7, height: 100), width: 7, height: 100) == nil)
        #expect(Self.fingerprint(Self.picture(width: 8, height: 8), width: 8, height: 8) != nil)
    }

    /// Every fingerprint sets 32 of its 64 bits (above and below the median), so distances are even.
    @Test func halfTheBitsAreSet() throws {
        for seed in 1...5 as ClosedRange<UInt64> {
            let fingerprint = try #require(
                Self.fingerprint(Self.picture(width: 100, height: 80, noise: 20, seed: seed), width: 100, height: 80))
            #expect(fingerprint.bits.nonzeroBitCount == 32)
        }
    }

    /// Every cell of the 32×32 square is the mean of what it covers, whether a pixel is smaller or larger than a cell
    /// or straddles a border: an even picture averages to its own level everywhere, and a left-dark, right-light
    /// split at the middle gives dark left cells and light right ones, in grey and in sRGB alike.
    @Test func theSquareAveragesWhatEachCellCovers() {
        for (width, height) in [(8, 8), (13, 31), (33, 65), (341, 256), (1000, 9)] {
            let even = [UInt8](repeating: 100, count: width * height)
            let averaged = even.withUnsafeBytes {
                PerceptualHash.boxAveraged($0, width: width, height: height, bands: 1)
            }
            #expect(averaged.allSatisfy { abs($0 - 100) < 1e-9 }, "\(width)×\(height)")
            let split = (0..<height).flatMap { _ in
                (0..<width).flatMap { x in [UInt8](repeating: x < width / 2 ? 0 : 200, count: 3) }
            }
            let square = split.withUnsafeBytes {
                PerceptualHash.boxAveraged($0, width: width, height: height, bands: 3)
            }
            #expect(square[0] < 1e-9 && abs(square[31] - 200) < 1e-9, "\(width)×\(height)")
            #expect(abs(square.reduce(0, +) / 1024 - 200 * Double(width - width / 2) / Double(width)) < 1e-9)
        }
    }

    /// What is transparent counts as white: a picture drawn in alpha over nothing has the fingerprint of the same
    /// picture drawn on white, in grey and in sRGB.
    @Test func transparencyCountsAsWhite() throws {
        let (width, height) = (120, 90)
        let shapes = Self.picture(width: width, height: height)
        let onWhite = shapes.map { UInt8(255 - (255 - Int($0)) / 2) }  // half covered, over white
        let expected = try #require(Self.fingerprint(onWhite, width: width, height: height))
        let greyAlpha: [UInt8] = shapes.flatMap { [$0, 128] }
        let rgbAlpha: [UInt8] = shapes.flatMap { [$0, $0, $0, 128] }
        #expect(
            greyAlpha.withUnsafeBytes {
                PerceptualHash.fingerprint(ofPixels: $0, width: width, height: height, bands: 2)
            }.map { $0.distance(to: expected) <= 2 } == true)
        #expect(
            rgbAlpha.withUnsafeBytes {
                PerceptualHash.fingerprint(ofPixels: $0, width: width, height: height, bands: 4)
            }.map { $0.distance(to: expected) <= 2 } == true)
    }
}
