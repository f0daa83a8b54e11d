import PhotoModel
import PredicateQuery
import Testing

/// One asset's values, as the store would provide them.
private let sample: [String: PredicateValue] = [
    "mediaType": .integer(1),
    "mediaSubtypes": .integer(Int64(MediaSubtypes([.photoScreenshot, .photoLive]).rawValue)),
    "creationDate": .real(Timestamp(rfc3339: "2024-01-31T10:15:00+01:00")!.secondsSince1970),
    "addedDate": .real(Timestamp(rfc3339: "2024-03-01T00:00:00Z")!.secondsSince1970),
    "pixelWidth": .integer(4032),
    "pixelHeight": .integer(3024),
    "duration": .real(0),
    "isFavorite": .boolean(true),
    "isHidden": .boolean(false),
    "originalFilename": .text("Crème Brûlée.JPG"),
    "fileSize": .integer(3_500_000),
]

private func evaluateOnSample(_ text: String) throws -> Bool {
    try QueryPredicate(parsing: text, schema: .assets).evaluate { sample[$0.name] }
}

private func error(of text: String, schema: PredicateSchema = .assets) -> String? {
    do {
        _ = try QueryPredicate(parsing: text, schema: schema)
        return nil
    } catch {
        return error.description
    }
}

struct PredicateParserTests {
    @Test(arguments: [
        ("mediaType == 1", true),
        ("mediaType = 'image'", true),
        ("mediaType == 2 OR mediaType == 3", false),
        ("mediaType IN {2, 'audio'}", false),
        ("mediaType != 'video'", true),
        ("pixelWidth > 4000 AND pixelHeight >= 3024", true),
        ("pixelWidth > 4000 && pixelHeight < 3024", false),
        ("pixelWidth =< 4032 and pixelWidth => 4032", true),
        ("4000 < pixelWidth", true),
        ("pixelWidth <> 4032", false),
        ("pixelWidth BETWEEN {4000, 5000}", true),
        ("pixelWidth BETWEEN {4033, 5000}", false),
        ("pixelWidth > 4031.5", true),
        ("fileSize > 0x100000", true),
        ("duration == 0", true),
        ("duration > -1.5e1", true),
        ("isFavorite == YES", true),
        ("isFavorite = TRUE AND isHidden = no", true),
        ("isFavorite == 0", false),
        ("NOT isFavorite == YES", false),
        ("!(isFavorite == YES) || isHidden == NO", true),
        ("creationDate > '2024-01-31T09:00:00Z'", true),
        ("creationDate > '2024-01-31T09:15:00Z'", false),
        ("creationDate BETWEEN {'2024-01-01T00:00:00Z', '2024-12-31T23:59:59.999+14:00'}", true),
        ("creationDate != nil", true),
        ("modificationDate == nil", true),
        ("modificationDate < '2030-01-01T00:00:00Z'", false),
        ("NOT modificationDate < '2030-01-01T00:00:00Z'", true),
        ("burstIdentifier == nil", true),
        ("burstIdentifier != 'abc'", true),
        ("burstIdentifier IN {nil, 'abc'}", true),
        ("originalFilename BEGINSWITH 'Crème'", true),
        ("originalFilename BEGINSWITH 'creme'", false),
        ("originalFilename BEGINSWITH[cd] 'creme'", true),
        ("originalFilename ENDSWITH '.jpg'", false),
        ("originalFilename ENDSWITH[c] '.jpg'", true),
        ("originalFilename CONTAINS[d] 'Brulee'", true),
        ("originalFilename LIKE '*Br?l*.JPG'", true),
        ("originalFilename LIKE[cd] 'creme*'", true),
        ("originalFilename LIKE 'Crème'", false),
        ("originalFilename ==[cd] 'CREME BRULEE.jpg'", true),
        ("originalFilename IN[c] {'crème brûlée.jpg', 'x'}", true),
        ("'Brûlée' IN originalFilename", true),
        ("originalFilename == '\\'); DROP TABLE asset; --'", false),
        ("originalFilename < 'D'", true),
        ("mediaSubtypes CONTAINS 'photoLive'", true),
        ("mediaSubtypes CONTAINS 'photoPanorama'", false),
        ("'photoScreenshot' IN mediaSubtypes", true),
        ("(mediaSubtypes & 4) != 0", true),
        ("(mediaSubtypes & 1) == 1", false),
        ("mediaSubtypes & 12 == 12", true),
        ("mediaSubtypes == 12", true),
        ("TRUEPREDICATE", true),
        ("FALSEPREDICATE OR (TRUEPREDICATE AND NOT FALSEPREDICATE)", true),
        ("((((pixelWidth > 1))))", true),
        ("pixelWidth > 1 AND (pixelHeight < 1 OR isFavorite == YES)", true),
    ])
    func acceptsAndEvaluates(_ text: String, _ expected: Bool) throws {
        #expect(try evaluateOnSample(text) == expected)
    }

    @Test(arguments: [
        ("foo == 1", "unknown key 'foo' at position 0"),
        ("pixelWidth > 1 AND foo == 2", "unknown key 'foo' at position 19"),
        ("mediatype == 1", "unknown key 'mediatype' (did you mean 'mediaType'?) at position 0"),
        ("pixelWidht > 1", "unknown key 'pixelWidht' (did you mean 'pixelWidth'?) at position 0"),
        ("creatonDate > 1", "unknown key 'creatonDate' (did you mean 'creationDate'?) at position 0"),
        ("flavour == 1", "unknown key 'flavour' at position 0"),
        ("", "empty predicate at position 0"),
        ("(pixelWidth > 1", "unexpected end of predicate, expected ')' at position 15"),
        ("pixelWidth > 1)", "unexpected ')' at position 14"),
        ("pixelWidth >", "unexpected end of predicate, expected a key or a value at position 12"),
        ("pixelWidth > 'abc'", "pixelWidth needs a number at position 13"),
        ("isFavorite == 'yes'", "isFavorite needs TRUE, FALSE, YES or NO at position 14"),
        ("isFavorite == 2", "isFavorite needs TRUE, FALSE, YES or NO at position 14"),
        ("isFavorite > NO", "> does not apply to isFavorite at position 11"),
        ("creationDate > 5", "creationDate needs an RFC 3339 date string such as '2024-01-31T10:15:00Z' at position 15"),
        ("creationDate > 'yesterday'", "'yesterday' is not an RFC 3339 date such as 2024-01-31T10:15:00Z at position 15"),
        ("mediaType == 'picture'", "unknown media type 'picture' (image, video, audio or unknown) at position 13"),
        ("mediaType == 7", "unknown media type number 7 (1 image, 2 video, 3 audio) at position 13"),
        ("mediaSubtypes CONTAINS 'photoBlurry'", "unknown media subtype 'photoBlurry' at position 23"),
        ("mediaSubtypes IN {1}", "use CONTAINS to test mediaSubtypes at position 14"),
        ("pixelWidth & 1 == 1", "'&' applies only to mediaSubtypes at position 0"),
        ("pixelWidth IN 5", "IN needs a list such as {1, 2} at position 14"),
        ("pixelWidth == {1, 2}", "a list needs IN or BETWEEN at position 14"),
        ("pixelWidth BETWEEN {1}", "BETWEEN needs a list of two values such as {1, 5} at position 19"),
        ("pixelWidth < nil", "nil can only be compared with == or != at position 13"),
        ("pixelWidth ==[c] 1", "[c] and [d] apply only to text keys at position 13"),
        ("originalFilename <[c] 'a'", "[c] and [d] do not apply to < at position 18"),
        ("originalFilename ==[x] 'a'", "unknown option 'x' (use c, d or cd) at position 20"),
        ("originalFilename MATCHES 'a.*'", "MATCHES (regular expressions) is not supported; use LIKE at position 17"),
        ("pixelWidth CONTAINS 'a'", "CONTAINS applies only to text keys at position 11"),
        ("pixelWidth == pixelHeight", "comparing two keys is not supported at position 14"),
        ("1 == 1", "a comparison needs a key at position 0"),
        ("ANY mediaSubtypes == 1", "ANY applies to a key of many values, such as keywords at position 0"),
        ("ALL keywords == 'x'", "aggregate operator ALL is not supported; use NOT (ANY …) at position 0"),
        ("keywords == 'x'", "keywords holds many values: use ANY keywords == 'x' or 'x' IN keywords at position 0"),
        ("pixelWidth > 1 AND", "unexpected end of predicate, expected a key or a value at position 18"),
        ("pixelWidth > 1 pixelHeight > 1", "unexpected 'pixelHeight' at position 15"),
        ("pixelWidth ~ 1", "unexpected character '~' at position 11"),
        ("originalFilename == 'open", "unterminated string at position 20"),
        ("originalFilename == 'a\\qb'", "unknown escape '\\q' at position 22"),
        ("pixelWidth > 12abc", "malformed number at position 13"),
        ("pixelWidth > 1e999", "number out of range at position 13"),
        ("originalFilename == $name", "unexpected character '$' at position 20"),
        ("pixelWidth > 1 AND AND", "expected a key or a value, found AND at position 19"),
        ("originalFilename BEGINSWITH 5", "BEGINSWITH needs a quoted string at position 28"),
        ("'a' BEGINSWITH originalFilename", "put the key on the left of BEGINSWITH at position 0"),
    ])
    func refusesWithThePosition(_ text: String, _ expected: String) {
        #expect(error(of: text) == expected)
    }

    @Test(arguments: [
        ("title BEGINSWITH[c] 'trip'", nil),
        ("kind == 'album' AND assetCount > 3", nil),
        ("subtype IN {'smartAlbumFavorites', 'moment'}", nil),
        ("startDate < '2024-01-01T00:00:00Z' OR endDate == nil", nil),
        ("kind == 'albm'", "unknown kind 'albm' at position 8"),
        ("subtype BEGINSWITH 'smart'", nil),
        ("pixelWidth > 1", "unknown key 'pixelWidth' at position 0"),
    ] as [(String, String?)])
    func collectionPredicatesUseTheCollectionKeys(_ text: String, _ expected: String?) {
        #expect(error(of: text, schema: .collections) == expected)
    }

    @Test func parsesIntoTheCheckedTree() throws {
        let predicate = try QueryPredicate(
            parsing: "NOT (mediaType == 'video' OR 3 >= pixelWidth) AND burstIdentifier != nil AND originalFilename LIKE[c] 'A?*'",
            schema: .assets)
        let keys = PredicateSchema.assets.keys
        #expect(predicate == .and([
            .not(.or([
                .test(KeyTest(key: keys["mediaType"]!, condition: .compare(.equal, .integer(2), []))),
                .test(KeyTest(key: keys["pixelWidth"]!, condition: .compare(.lessOrEqual, .integer(3), []))),
            ])),
            .not(.test(KeyTest(key: keys["burstIdentifier"]!, condition: .isNil))),
            .test(KeyTest(key: keys["originalFilename"]!, condition: .matches(
                WildcardPattern(elements: [.literal("a"), .anyCharacter, .anyRun]), .caseInsensitive))),
        ]))
    }
}
