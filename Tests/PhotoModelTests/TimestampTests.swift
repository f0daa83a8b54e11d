import Testing
@testable import PhotoModel

struct TimestampTests {
    @Test(arguments: [
        ("2024-01-31T10:15:00+01:00", 1_706_692_500.0, 3_600),
        ("2024-01-31T09:15:00Z", 1_706_692_500.0, 0),
        ("2024-01-31T04:15:00.250-05:00", 1_706_692_500.25, -18_000),
        ("1969-12-31T23:59:59+00:00", -1.0, 0),
        ("2000-02-29T12:00:00+05:30", 951_805_800.0, 19_800),
    ])
    func parsesRFC3339WithItsOffset(text: String, seconds: Double, offset: Int) throws {
        let timestamp = try #require(Timestamp(rfc3339: text))
        #expect(timestamp.secondsSince1970 == seconds)
        #expect(timestamp.utcOffsetSeconds == offset)
    }

    @Test(arguments: [
        "2024-01-31T10:15:00+01:00", "2024-01-31T04:15:00.250-05:00", "1969-12-31T23:59:59+00:00",
        "2000-02-29T12:00:00+05:30", "2099-12-31T23:59:59.999+14:00",
    ])
    func writesWhatItRead(text: String) throws {
        #expect(try #require(Timestamp(rfc3339: text)).rfc3339 == text)
    }

    @Test func writesUTCWithANumericOffset() {
        #expect(Timestamp(secondsSince1970: 0).rfc3339 == "1970-01-01T00:00:00+00:00")
    }

    @Test(arguments: [
        "", "2024-01-31", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-01-31T24:00:00Z",
        "2024-01-31T10:15:00", "2024-01-31T10:15:00+1:00", "2024-01-31T10:15:00Zjunk", "2024-01-31T10:15:00.Z",
        "'); DROP TABLE asset; --",
    ])
    func rejectsMalformedText(text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
    }

    @Test func localDayUsesTheTimestampsOwnOffset() throws {
        let lateEvening = try #require(Timestamp(rfc3339: "2024-01-31T23:30:00-08:00"))
        #expect(lateEvening.localDay == "2024-01-31")
    }
}
