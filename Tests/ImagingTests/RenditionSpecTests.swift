import Imaging
import PhotoModel
import Testing

private let landscape = PixelSize(width: 4000, height: 3000)

@Test(arguments: [
    (RenditionSpec(size: .original), PixelSize(width: 4000, height: 3000)),
    (RenditionSpec(size: .shortSide(256)), PixelSize(width: 341, height: 256)),
    (RenditionSpec(size: .fit(PixelSize(width: 256, height: 256))), PixelSize(width: 256, height: 192)),
    (RenditionSpec(size: .fill(PixelSize(width: 256, height: 256))), PixelSize(width: 341, height: 256)),
    (RenditionSpec(size: .fit(PixelSize(width: 300, height: 100))), PixelSize(width: 133, height: 100)),
    (RenditionSpec(size: .fill(PixelSize(width: 300, height: 100))), PixelSize(width: 300, height: 225)),
    (RenditionSpec(size: .fit(PixelSize(width: 8000, height: 8000))), PixelSize(width: 4000, height: 3000)),
    (RenditionSpec(size: .fill(PixelSize(width: 5000, height: 100))), PixelSize(width: 4000, height: 3000)),
    (RenditionSpec(size: .shortSide(6000)), PixelSize(width: 4000, height: 3000)),
    (RenditionSpec(size: .fit(PixelSize(width: 1, height: 1))), PixelSize(width: 1, height: 1)),
    (RenditionSpec(size: .fit(PixelSize(width: 200, height: 200)), crop: NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 0.5)),
     PixelSize(width: 200, height: 150)),
    (RenditionSpec(size: .fill(PixelSize(width: 200, height: 200)), crop: NormalizedRect(x: 0, y: 0, width: 0.25, height: 1)),
     PixelSize(width: 200, height: 600)),
    (RenditionSpec(size: .fit(PixelSize(width: 8000, height: 8000)), crop: NormalizedRect(x: 0, y: 0, width: 0.1, height: 0.1)),
     PixelSize(width: 4000, height: 3000)),
    (RenditionSpec(size: .original, crop: NormalizedRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)),
     PixelSize(width: 2000, height: 1500)),
])
func eachSizeFollowsFromTheUprightImage(spec: RenditionSpec, expected: PixelSize) {
    #expect(spec.outputSize(forUpright: landscape) == expected)
}

@Test func fitMakesTheLongerSideAndFillTheShorterSideEqualASquareTarget() {
    for source in [landscape, PixelSize(width: 3000, height: 4000), PixelSize(width: 10_000, height: 1_000)] {
        let fit = RenditionSpec(size: .fit(PixelSize(width: 500, height: 500))).outputSize(forUpright: source)
        let fill = RenditionSpec(size: .fill(PixelSize(width: 500, height: 500))).outputSize(forUpright: source)
        #expect(max(fit.width, fit.height) == 500)
        #expect(min(fill.width, fill.height) == 500)
    }
}

@Test func aBoxLargerThanTheImageGivesTheImagesOwnSizeInEveryMode() {
    // A 174×38 strip asked for at 256×256 (seen as 586×128 in fill mode before renditions stopped growing).
    let strip = PixelSize(width: 174, height: 38)
    for size in [RenditionSize.fit(PixelSize(width: 256, height: 256)), .fill(PixelSize(width: 256, height: 256)), .shortSide(256),
                 .fit(PixelSize(width: .max, height: .max))] {
        #expect(RenditionSpec(size: size).outputSize(forUpright: strip) == strip, "\(size)")
    }
}

@Test(arguments: [
    (NormalizedRect(x: 0, y: 0, width: 1, height: 1), true),
    (NormalizedRect(x: 0.25, y: 0.5, width: 0.75, height: 0.5), true),
    (NormalizedRect(x: -0.1, y: 0, width: 0.5, height: 0.5), false),
    (NormalizedRect(x: 0.6, y: 0, width: 0.5, height: 0.5), false),
    (NormalizedRect(x: 0, y: 0, width: 0, height: 0.5), false),
    (NormalizedRect(x: 0, y: 0, width: .nan, height: 0.5), false),
    (NormalizedRect(x: 0, y: 0.5, width: 1, height: 0.6), false),
])
func aCropRectangleMustHaveAnAreaInsideTheUnitSquare(rect: NormalizedRect, isValid: Bool) {
    #expect(rect.isInsideUnitSquare == isValid)
}
