import FuzzSupport
import PhotoModel

/// Brackets and separators around a date, though the reader follows none: it must stay linear in them.
let fileNameNesting = DeepNesting([
    .init("(", ")"), .init("[", "]"), .init("{", "}"), .init("IMG_", "_1"), .init("-", "."),
])

func readFileNameDate(_ input: UnsafeRawBufferPointer) {
    fileNameNesting.withText(of: input, readFileNameDateText)
}

func readFileNameDateText(_ input: UnsafeRawBufferPointer) {
    _ = FileNameDate(fileName: String(decoding: input, as: UTF8.self))
}

@main
struct FuzzFileNameDate {
    /// Feeds each input as a file name whose date is read; an input in deep-nesting mode stands for a name with
    /// brackets as deep as it asks around its text.
    static func main() throws {
        try FuzzTarget.run(readFileNameDate)
    }
}
