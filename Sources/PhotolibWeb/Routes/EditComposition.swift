import PhotoLibrary

/// A turn or crop asked for on the photo as the page shows it, folded into the photo's current basic edit: the
/// daemon renders an edit from the original, so a second turn adds to the first, and a crop drawn on a turned photo
/// is turned back into the original's coordinates.
enum EditComposition {
    /// The edit that shows `current` turned by `degrees` more (clockwise) and then cropped to `crop` (0…1 of the
    /// picture as shown after that turn).
    static func compose(_ current: BasicAdjustment, turning degrees: Int, cropping crop: NormalizedRect?) -> BasicAdjustment {
        var edit = current
        edit.rotate = ((current.rotate + degrees) % 360 + 360) % 360
        guard let crop else { return edit }
        // Shown = mirror?(turn(crop(original))): undo the mirror, then the turn, to get a rectangle of the cropped original.
        var shown = crop
        if edit.flipHorizontal { shown.x = 1 - shown.x - shown.width }
        let unturned = unturn(shown, by: edit.rotate)
        let base = current.crop ?? NormalizedRect(x: 0, y: 0, width: 1, height: 1)
        edit.crop = NormalizedRect(x: base.x + unturned.x * base.width, y: base.y + unturned.y * base.height,
                                   width: unturned.width * base.width, height: unturned.height * base.height)
        return edit
    }

    /// The rectangle that turning by `degrees` clockwise carries onto `rect`.
    static func unturn(_ rect: NormalizedRect, by degrees: Int) -> NormalizedRect {
        switch degrees {
        case 90: NormalizedRect(x: rect.y, y: 1 - rect.x - rect.width, width: rect.height, height: rect.width)
        case 180: NormalizedRect(x: 1 - rect.x - rect.width, y: 1 - rect.y - rect.height, width: rect.width, height: rect.height)
        case 270: NormalizedRect(x: 1 - rect.y - rect.height, y: rect.x, width: rect.height, height: rect.width)
        default: rect
        }
    }
}
