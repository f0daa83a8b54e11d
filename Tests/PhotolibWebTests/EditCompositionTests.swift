import PhotoLibrary
@testable import PhotolibWeb
import Testing

struct EditCompositionTests {
    @Test func turnsAddUpToAWholeTurn() {
        var edit = BasicAdjustment()
        for expected in [90, 180, 270, 0] {
            edit = EditComposition.compose(edit, turning: 90, cropping: nil)
            #expect(edit.rotate == expected)
        }
        #expect(EditComposition.compose(BasicAdjustment(rotate: 0), turning: 270, cropping: nil).rotate == 270)
    }

    @Test func aCropDrawnOnATurnedPhotoIsTurnedBackIntoTheOriginal() {
        // The left half of a photo shown turned a quarter clockwise is the bottom half of the original.
        let turned = BasicAdjustment(rotate: 90)
        let left = NormalizedRect(x: 0, y: 0, width: 0.5, height: 1)
        #expect(EditComposition.compose(turned, turning: 0, cropping: left).crop == NormalizedRect(x: 0, y: 0.5, width: 1, height: 0.5))
        let upsideDown = BasicAdjustment(rotate: 180)
        let topLeft = NormalizedRect(x: 0, y: 0, width: 0.25, height: 0.5)
        #expect(EditComposition.compose(upsideDown, turning: 0, cropping: topLeft).crop == NormalizedRect(x: 0.75, y: 0.5, width: 0.25, height: 0.5))
    }

    @Test func aSecondCropIsTakenWithinTheFirst() {
        let cropped = BasicAdjustment(crop: NormalizedRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5))
        let again = EditComposition.compose(cropped, turning: 0, cropping: NormalizedRect(x: 0, y: 0, width: 0.5, height: 0.5))
        #expect(again.crop == NormalizedRect(x: 0.5, y: 0.5, width: 0.25, height: 0.25))
    }

    @Test(arguments: [90, 180, 270])
    func unturningIsTheInverseOfTurning(degrees: Int) {
        let rect = NormalizedRect(x: 0.125, y: 0.25, width: 0.5, height: 0.25)
        let once = EditComposition.unturn(rect, by: degrees)
        // Unturning by d then by the rest of the whole turn gives the rectangle back.
        var whole = once
        for _ in 0..<(4 - degrees / 90) { whole = EditComposition.unturn(whole, by: 90) }
        #expect(whole == rect)
    }
}
