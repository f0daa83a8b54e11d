import PhotoModel
import Testing

/// Capture times that cameras, phones and screenshot tools write into file names.
@Suite struct FileNameDateTests {
    @Test(arguments: [
        ("IMG_20240131_101500.jpg", [2024, 1, 31, 10, 15, 0]),
        ("PXL_20240131_101500123.jpg", [2024, 1, 31, 10, 15, 0]),
        ("VID_20231224_235959.mp4", [2023, 12, 24, 23, 59, 59]),
        ("20240229_061500.jpg", [2024, 2, 29, 6, 15, 0]),
        ("Screenshot 2024-01-31 at 10.15.00.png", [2024, 1, 31, 10, 15, 0]),
        ("Screen Shot 2024-01-31 at 1.05.00 PM.png", [2024, 1, 31, 13, 5, 0]),
        ("Screenshot 2024-01-31 at 12.05.09 AM.png", [2024, 1, 31, 0, 5, 9]),
        ("Screenshot 2024-01-31 at 1.05.00\u{202F}PM.png", [2024, 1, 31, 13, 5, 0]),
        ("Screenshot 2024-01-31 at 9.05.09.png", [2024, 1, 31, 9, 5, 9]),
        ("IMG_20240131_1.jpg", [2024, 1, 31, 0, 0, 0]),
        ("Screenshot_2024-01-31-22-05-09.png", [2024, 1, 31, 22, 5, 9]),
        ("IMG-20240131-WA0001.jpg", [2024, 1, 31, 0, 0, 0]),
        ("signal-2024-01-31-101500.jpg", [2024, 1, 31, 10, 15, 0]),
        ("photo_2024-01-31_10-15-00.jpg", [2024, 1, 31, 10, 15, 0]),
        ("DJI_20230815143015_0001_D.JPG", [2023, 8, 15, 14, 30, 15]),
        ("20240131101500123.jpg", [2024, 1, 31, 10, 15, 0]),
    ])
    func datesInNamesAreFound(name: String, expected: [Int]) throws {
        let date = try #require(FileNameDate(fileName: name))
        #expect([date.year, date.month, date.day, date.hour, date.minute, date.second] == expected)
    }

    @Test(arguments: ["IMG_0001.jpg", "DSC12345678.jpg", "20240230_101500.jpg", "holiday.jpg", "18991231.jpg", "120240131.jpg",
                      "2024013110150.jpg", "20240131250000.jpg"])
    func namesWithoutARealDateGiveNone(name: String) {
        #expect(FileNameDate(fileName: name) == nil)
    }
}
