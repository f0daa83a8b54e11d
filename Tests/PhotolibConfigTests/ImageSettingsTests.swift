import Testing

@testable import PhotolibConfig

@Suite struct ImageSettingsTests: ConfigurationFileLoading {
    let environment = ["HOME": "/home/ann", "XDG_CACHE_HOME": "/home/ann/.cache"]

    @Test func theImagesTableSetsTheBudgetThePixelLimitAndTheThumbnailDirectory() throws {
        let configuration = try load(
            """
            [images]
            cache_limit_mb = 512
            max_pixels = 50000000
            freedesktop_thumbnails = "~/thumbs"
            """)
        #expect(configuration.cacheByteLimit == 512 << 20)
        #expect(configuration.maximumImagePixels == 50_000_000)
        #expect(configuration.freedesktopThumbnailDirectory == "/home/ann/thumbs")
    }

    @Test func leftOutTheyKeepTheirDefaults() throws {
        let configuration = try load("library = \"/srv/library\"\n")
        #expect(configuration.cacheByteLimit == 4 << 30)
        #expect(configuration.maximumImagePixels == 200_000_000)
        #expect(configuration.freedesktopThumbnailDirectory == nil)
    }

    @Test(arguments: [("true", "/home/ann/.cache/thumbnails" as String?), ("false", nil)])
    func freedesktopThumbnailsTrueMeansWhereFileManagersLook(value: String, directory: String?) throws {
        #expect(try load("[images]\nfreedesktop_thumbnails = \(value)\n").freedesktopThumbnailDirectory == directory)
    }

    @Test(arguments: [
        ("cache_limit_mb = 0", "images.cache_limit_mb", "is 0; it must be 1 or more megabytes"),
        ("max_pixels = -5", "images.max_pixels", "is -5; it must be 1 or more pixels"),
    ])
    func aBudgetOrLimitBelowOneIsRefused(line: String, key: String, reason: String) throws {
        let (error, file) = try loadError("[images]\n\(line)\n")
        #expect(error == .invalidValue(file: file, key: key, line: 2, reason: reason))
    }

    @Test func aThumbnailSettingThatIsNeitherABooleanNorAPathIsRefused() throws {
        let (error, file) = try loadError("[images]\nfreedesktop_thumbnails = 3\n")
        #expect(
            error
                == .wrongType(
                    file: file, key: "images.freedesktop_thumbnails", line: 2,
                    expected: "a boolean or a directory path", found: "an integer"))
    }

    @Test(arguments: ["yes", "No", "true", "off"])
    func aQuotedYesOrNoIsNotTakenForAFolder(word: String) throws {
        let (error, file) = try loadError("[images]\nfreedesktop_thumbnails = \"\(word)\"\n")
        #expect(
            error
                == .invalidValue(
                    file: file, key: "images.freedesktop_thumbnails", line: 2,
                    reason: "is the text \"\(word)\"; write true or false without quotes, or a directory path"))
    }

    @Test func anUnknownImagesKeyIsNamed() throws {
        let (error, _) = try loadError("[images]\ncache_size = 3\n")
        #expect(error?.key == "images.cache_size")
    }
}
