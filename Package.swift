// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "photolibd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "photolibd", targets: ["photolibd"]),
        .executable(name: "photolib", targets: ["photolib"]),
        .executable(name: "photolibd-raw", targets: ["photolibd-raw"]),
        .library(name: "PhotoLibrary", targets: ["PhotoLibrary"]),
        .library(name: "Photos", targets: ["Photos"]),
        .library(name: "AssetsLibrary", targets: ["AssetsLibrary"]),
        .library(name: "AVFoundation", targets: ["AVFoundation"]),
        .library(name: "UniformTypeIdentifiers", targets: ["UniformTypeIdentifiers"]),
        .executable(name: "photolib-web", targets: ["photolib-web"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Without its default ConfigurationSupport trait: the gallery reads no swift-configuration providers, and a first
        // build skips compiling that package.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // JSON read from and written into bytes directly, for the messages too large for Foundation's coders.
        .target(name: "CompactJSON"),
        // Bytes written as lowercase hex: digests, tokens, content hashes.
        .target(name: "HexEncoding"),
        // SHA-256, MD5 and HMAC by OpenSSL's libcrypto, as Debian packages it: content hashes, cache file names, tokens.
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "Digests", dependencies: ["COpenSSL"]),

        // Failures classed by their cause: the errno behind a POSIX, Foundation or Cocoa error, and whether it may pass.
        .target(name: "SystemFaults"),

        // Pure value types of the library: assets, collections, queries, changes, tokens.
        .target(name: "PhotoModel", dependencies: ["CompactJSON"]),

        // The wire, defined once for the daemon and the clients: interface and method names, each method's
        // parameters, the shared enums, and the interfaces' IDL (Interfaces/*.varlink, served as written).
        .target(
            name: "PhotolibProtocol",
            dependencies: ["PhotoModel", "CompactJSON"],
            resources: [
                .embedInCode("Interfaces/io.photolibd.Library.varlink"),
                .embedInCode("Interfaces/io.photolibd.Images.varlink"),
                .embedInCode("Interfaces/io.photolibd.Import.varlink"),
            ]
        ),

        // NSPredicate-format predicates: parsing against a key schema, checking, evaluation.
        .target(name: "PredicateQuery", dependencies: ["PhotoModel"]),

        // The SQLite library store: schema, migrations, fetches, change transactions, change log.
        .target(
            name: "LibraryStore",
            dependencies: [
                "CompactJSON", "PhotoModel", "PredicateQuery",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),

        // The varlink protocol: NUL-framed JSON messages, errors, the NIO Unix-socket server and client.
        .target(
            name: "Varlink",
            dependencies: [
                "CompactJSON",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .systemLibrary(name: "CMalloc"),
        // libvips, as Debian packages it. Its headers need GLib's include folders alone, which gobject-2.0's
        // pkg-config file gives; vips.pc adds -pthread (from GLib's gmodule), a flag SwiftPM drops with a warning on
        // every build. The module map links libvips.
        .systemLibrary(
            name: "CVips",
            pkgConfig: "gobject-2.0",
            providers: [.apt(["libvips-dev"])]
        ),

        // LibRaw, as Debian packages it: camera RAW files. Its headers are found in /usr/include without pkg-config,
        // whose -fopenmp SwiftPM drops with a warning; the module map links it.
        .systemLibrary(
            name: "CLibRaw",
            providers: [.apt(["libraw-dev"])]
        ),

        // Images through libvips: metadata (size, orientation, EXIF dates, GPS), renditions, embedded thumbnails,
        // and video poster frames through the ffmpeg command; camera RAW files through LibRaw, in a helper process.
        .target(
            name: "Imaging", dependencies: ["CVips", "CLibRaw", "ToolProcess", "PhotoModel", "ImageFingerprinting"]),
        // Perceptual fingerprints of pictures from their grey levels (CONTRACT §17), which duplicates are found by.
        .target(
            name: "ImageFingerprinting", dependencies: ["PhotoModel"],
            // Optimized in debug builds too: every test daemon fingerprints every photo it imports (20 ms a photo
            // unoptimized).
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),

        // exiv2's C API, as Debian packages it: XMP, IPTC and EXIF. Its headers need GLib's include folders alone, as
        // libvips's do (gexiv2.pc adds -pthread); the module map links it.
        .systemLibrary(
            name: "CGexiv2",
            pkgConfig: "gobject-2.0",
            providers: [.apt(["libgexiv2-dev"])]
        ),

        // Stars, keywords, titles and captions (CONTRACT §14) through gexiv2: read from a photo's embedded XMP and
        // IPTC and from its XMP sidecar, written into the sidecar keeping every other tool's properties.
        .target(name: "XMPAnnotations", dependencies: ["CGexiv2", "PhotoModel"]),

        // Watching folder trees: inotify events (one watch per folder) and stat-only scans.
        .target(name: "FolderWatch", dependencies: ["PhotoModel"]),

        // Video and audio metadata read with ffprobe: duration, displayed size, frame rate, creation time, place.
        .target(name: "MediaProbe", dependencies: ["PhotoModel", "ToolProcess"]),

        // Places named offline (CONTRACT §15): the nearest GeoNames populated place to a position, from the place table
        // scripts/lib/build-place-table.py writes, and mean positions on the sphere.
        .target(
            name: "ReverseGeocoding",
            dependencies: [
                "PhotoModel", "PhotolibLocations",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            // Optimized in debug builds too: reading the table's 234,908 places takes 3 s unoptimized, 0.2 s optimized,
            // in every test daemon and `scripts/run-daemon` daemon that meets a location.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),

        // Video exports with the ffmpeg command: AVFoundation's presets as H.264/AAC sizes, progress, cancellation.
        .target(name: "VideoExport", dependencies: ["ToolProcess"]),

        // External tools (ffmpeg, ffprobe, the RAW helper) run with a time limit, their output and error messages
        // collected; started with posix_spawn, which closes the daemon's descriptors in the tool.
        .target(name: "ToolProcess", dependencies: ["CSpawn"]),
        .systemLibrary(name: "CSpawn"),

        // The on-disk rendition cache: atomic files, a SQLite index, a byte budget with least-recently-used eviction.
        .target(
            name: "ThumbnailCache",
            dependencies: [
                "HexEncoding",
                .product(name: "GRDB", package: "GRDB.swift"),
                "Digests",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Where things live: the socket (one rule for the daemon and its clients), the config file, XDG directories.
        // Clients link this, not the configuration's TOML parser.
        .target(name: "PhotolibLocations"),
        // The log lines of the daemon and the gallery, in one format (syslog priorities under journald).
        .target(name: "JournalLogging", dependencies: [.product(name: "Logging", package: "swift-log")]),

        // Configuration file and embedded defaults.
        .target(
            name: "PhotolibConfig",
            dependencies: ["PhotolibLocations", "PhotolibProtocol", .product(name: "TOMLKit", package: "TOMLKit")]
        ),

        // Faces with dlib (Debian's libdlib): a small C interface over its detectors, 5-point alignment and ResNet
        // descriptors (C++ inside, optimized in debug builds too: an unoptimized ResNet takes seconds a face), and the
        // Swift type over it. No daemon types: it takes RGB pixels and gives boxes and descriptors.
        .target(
            name: "CFaceRecognition",
            cxxSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))],
            linkerSettings: [.linkedLibrary("dlib"), .linkedLibrary("blas"), .linkedLibrary("lapack")]
        ),
        .target(name: "FaceRecognition", dependencies: ["CFaceRecognition", "PhotoModel", "PhotolibLocations"]),

        // The daemon's work without its transport: importing and watching, images, edits, sidecars, file transfers,
        // authorization and upkeep. It never sees Varlink: the compiler holds that edge.
        .target(
            name: "DaemonCore",
            dependencies: [
                "CompactJSON", "PhotoModel", "PhotolibProtocol", "LibraryStore", "Imaging", "PhotolibConfig",
                "FolderWatch", "MediaProbe", "VideoExport", "XMPAnnotations", "ReverseGeocoding",
                "ThumbnailCache", "CMalloc", "HexEncoding", "SystemFaults", "Digests",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The daemon as a process: the varlink interfaces over the core (each call decodes, authorizes, calls one core
        // operation and encodes), socket activation, systemd's notifications and reloads.
        .target(
            name: "PhotolibDaemon",
            dependencies: [
                "DaemonCore", "CompactJSON", "PhotoModel", "PhotolibProtocol", "LibraryStore", "Varlink", "Imaging",
                "PhotolibConfig", "MediaProbe", "SystemFaults",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),

        // The PhotoKit-shaped client module over the socket.
        .target(
            name: "PhotoLibrary",
            dependencies: ["PhotoModel", "PhotolibProtocol", "Varlink", "PhotolibLocations"]
        ),

        // The stand-ins for AVFoundation's assets, player items and export sessions that PhotoKit's video requests give
        // (Linux has no AVFoundation); exports of files with the ffmpeg command. `Photos` re-exports it.
        .target(name: "AVFoundation", dependencies: ["VideoExport", "MediaProbe"]),

        // The stand-in for UniformTypeIdentifiers' `UTType` (Linux has none): the image, RAW, movie and audio types
        // PhotoKit's `contentType` members give, by identifier, extension and MIME type. `Photos` re-exports it.
        .target(name: "UniformTypeIdentifiers"),

        // Apple's PhotoKit API (PHPhotoLibrary, PHAsset, PHFetchResult, PHChange, PHImageManager, …) over the client module.
        .target(
            name: "Photos",
            dependencies: [
                "PhotoLibrary", "AVFoundation", "UniformTypeIdentifiers", "Imaging", "VideoExport", "CMalloc",
            ]
        ),

        // Apple's AssetsLibrary API (ALAssetsLibrary, ALAssetsGroup, ALAsset, …) over `Photos`.
        .target(name: "AssetsLibrary", dependencies: ["Photos", "PhotoLibrary", "Imaging"]),

        // The programs' command lines, each a library so that one binary can run them all (`photolibd`, below).
        .target(
            name: "DaemonCLI",
            dependencies: [
                "PhotolibDaemon", "PhotolibConfig", "JournalLogging",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "PhotolibCLI",
            dependencies: [
                "PhotoLibrary", "PredicateQuery", "Imaging", "PhotolibLocations",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The helper photolibd reads RAW files through (kept running between files), so that a decoder crash cannot
        // take the daemon down.
        .target(name: "RawHelper", dependencies: ["Imaging", "ToolProcess", "CMalloc"]),

        // The daemon, and in the Debian package every program: installed once, linked as photolib, photolib-web and
        // photolibd-raw, it runs the one it is called as (the Swift runtime it carries then ships once).
        .executableTarget(name: "photolibd", dependencies: ["DaemonCLI", "PhotolibCLI", "GalleryCLI", "RawHelper"]),
        .executableTarget(name: "photolibd-raw", dependencies: ["RawHelper"]),
        .executableTarget(name: "photolib", dependencies: ["PhotolibCLI"]),

        // The gallery in a browser: an HTTP server (Hummingbird) on the PhotoLibrary client module, the page's own
        // JSON API, live updates from one Observe stream fanned out to the pages, and the page itself (HTML, CSS and
        // ES modules in Page/, embedded as they are written).
        .target(
            name: "PhotolibWeb",
            dependencies: [
                "PhotoLibrary", "PhotolibLocations", "CompactJSON", "HexEncoding",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                "Digests",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            resources: [
                .embedInCode("Page/index.html"),
                .embedInCode("Page/gallery.css"),
                .embedInCode("Page/main.js"),
                .embedInCode("Page/api.js"),
                .embedInCode("Page/layout.js"),
                .embedInCode("Page/timeline.js"),
                .embedInCode("Page/tiles.js"),
                .embedInCode("Page/scrubber.js"),
                .embedInCode("Page/sidebar.js"),
                .embedInCode("Page/viewer.js"),
                .embedInCode("Page/crop.js"),
                .embedInCode("Page/info.js"),
                .embedInCode("Page/live.js"),
                .embedInCode("Page/upload.js"),
                .embedInCode("Page/selection.js"),
                .embedInCode("Page/video.js"),
                .embedInCode("Page/annotations.js"),
                .embedInCode("Page/folders.js"),
                .embedInCode("Page/places.js"),
                .embedInCode("Page/duplicates.js"),
            ]
        ),
        .target(
            name: "GalleryCLI",
            dependencies: [
                "PhotolibWeb", "PhotolibLocations", "JournalLogging",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "photolib-web", dependencies: ["GalleryCLI"]),

        // Helpers shared by tests and benchmarks: running tools, temporary directories, image fixtures, sockets.
        .target(
            name: "TestSupport", dependencies: ["Varlink", "PhotoModel", "LibraryStore"], path: "Tests/TestSupport"),
        .testTarget(name: "CompactJSONTests", dependencies: ["CompactJSON"]),
        .testTarget(name: "DigestsTests", dependencies: ["Digests", "HexEncoding", "TestSupport"]),
        .testTarget(name: "PhotoModelTests", dependencies: ["PhotoModel", "CompactJSON"]),
        .testTarget(name: "SystemFaultsTests", dependencies: ["SystemFaults", "TestSupport"]),
        .testTarget(name: "PredicateQueryTests", dependencies: ["PredicateQuery", "PhotoModel"]),
        .testTarget(name: "LibraryStoreTests", dependencies: ["LibraryStore", "PhotoModel"]),
        .testTarget(name: "VarlinkTests", dependencies: ["Varlink", "CompactJSON"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "PhotoModel", "TestSupport"]),
        .testTarget(name: "ImageFingerprintingTests", dependencies: ["ImageFingerprinting", "PhotoModel"]),
        .testTarget(name: "ThumbnailCacheTests", dependencies: ["ThumbnailCache", "TestSupport"]),
        .testTarget(
            name: "ImageServingTests",
            dependencies: [
                "DaemonCore", "PhotolibProtocol", "CompactJSON", "Imaging", "PhotoModel", "ThumbnailCache",
                "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The daemon's core in process: a library of the store and the core's types, without a daemon or socket.
        .testTarget(
            name: "DaemonCoreTests",
            dependencies: [
                "DaemonCore", "LibraryStore", "PhotoModel", "PhotolibProtocol", "PhotolibConfig", "Imaging",
                "ThumbnailCache", "TestSupport", "Varlink",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "PhotolibConfigTests", dependencies: ["PhotolibConfig", "PhotolibLocations"]),
        .testTarget(name: "FaceRecognitionTests", dependencies: ["FaceRecognition", "TestSupport"]),
        .testTarget(name: "FolderWatchTests", dependencies: ["FolderWatch", "PhotoModel", "TestSupport"]),
        .testTarget(name: "MediaProbeTests", dependencies: ["MediaProbe", "PhotoModel", "TestSupport"]),
        .testTarget(
            name: "ReverseGeocodingTests",
            dependencies: [
                "ReverseGeocoding", "PhotoModel", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(name: "ToolProcessTests", dependencies: ["ToolProcess"]),
        .testTarget(name: "VideoExportTests", dependencies: ["VideoExport", "TestSupport"]),
        .testTarget(name: "UniformTypeIdentifiersTests", dependencies: ["UniformTypeIdentifiers"]),
        .testTarget(name: "XMPAnnotationsTests", dependencies: ["XMPAnnotations", "PhotoModel", "TestSupport"]),
        .testTarget(
            name: "PhotosTests",
            dependencies: ["Photos", "AssetsLibrary", "PhotoLibrary", "TestSupport", "photolibd"]
        ),
        .testTarget(
            name: "PhotolibWebTests",
            dependencies: [
                "PhotolibWeb", "PhotoLibrary", "TestSupport", "photolibd",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "DaemonIntegrationTests",
            dependencies: [
                "PhotoLibrary", "PhotoModel", "LibraryStore", "Varlink", "TestSupport", "Digests", "HexEncoding",
                "photolibd", "photolib",
            ]
        ),
    ],
    cxxLanguageStandard: .cxx17
)

// What a person's build leaves out, built when asked (scripts/test asks for all three, so CI builds and runs them):
// PHOTOLIBD_EXAMPLES for the example programs, PHOTOLIBD_FUZZERS for the fuzz targets, PHOTOLIBD_BENCHMARKS for the
// benchmarks (their scripts ask).
let environment = Context.environment

if environment["PHOTOLIBD_EXAMPLES"] != nil {
    package.products += [
        .executable(name: "photo-picker", targets: ["PhotoPicker"]),
        .executable(name: "live-gallery", targets: ["LiveGallery"]),
        .executable(name: "photokit-picker", targets: ["PhotoKitPicker"]),
    ]
    package.targets += [
        // Example programs (README, "PhotoKit and AssetsLibrary code"): a terminal photo picker in AssetsLibrary
        // style, a live gallery in PhotoKit style, and a picker as iOS apps write them (albums, grid, several
        // picked, originals and 720p videos exported).
        .executableTarget(name: "PhotoPicker", dependencies: ["AssetsLibrary"], path: "Examples/PhotoPicker"),
        .executableTarget(name: "LiveGallery", dependencies: ["Photos"], path: "Examples/LiveGallery"),
        .executableTarget(name: "PhotoKitPicker", dependencies: ["Photos"], path: "Examples/PhotoKitPicker"),
    ]
}

if environment["PHOTOLIBD_FUZZERS"] != nil {
    package.targets += [
        // Coverage-guided fuzz targets (scripts/fuzz builds them with libFuzzer): each feeds its input to one parser.
        // A plain build replays the files it is given instead: the seed corpus and the inputs of past findings.
        .target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Fuzz/FuzzSupport"),
        .executableTarget(
            name: "fuzz-varlink",
            dependencies: [
                "FuzzSupport", "Varlink", "PhotolibProtocol",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
            ], path: "Fuzz/Varlink"),
        .executableTarget(
            name: "fuzz-predicate", dependencies: ["FuzzSupport", "PredicateQuery"], path: "Fuzz/Predicate"),
        .executableTarget(name: "fuzz-exif", dependencies: ["FuzzSupport", "Imaging"], path: "Fuzz/Exif"),
        .executableTarget(name: "fuzz-config", dependencies: ["FuzzSupport", "PhotolibConfig"], path: "Fuzz/Config"),
        .executableTarget(
            name: "fuzz-file-name-date", dependencies: ["FuzzSupport", "PhotoModel"], path: "Fuzz/FileNameDate"),
        .executableTarget(name: "fuzz-sidecar", dependencies: ["FuzzSupport", "XMPAnnotations"], path: "Fuzz/Sidecar"),
    ]
}

if environment["PHOTOLIBD_BENCHMARKS"] != nil {
    package.products += [
        .executable(name: "fetch-benchmark", targets: ["FetchBenchmark"]),
        .executable(name: "observer-benchmark", targets: ["ObserverBenchmark"]),
        .executable(name: "import-benchmark", targets: ["ImportBenchmark"]),
        .executable(name: "image-benchmark", targets: ["ImageBenchmark"]),
        .executable(name: "edit-benchmark", targets: ["EditBenchmark"]),
        .executable(name: "library-model-benchmark", targets: ["LibraryModelBenchmark"]),
        .executable(name: "photos-benchmark", targets: ["PhotosBenchmark"]),
        .executable(name: "raw-benchmark", targets: ["RawBenchmark"]),
        .executable(name: "transfer-benchmark", targets: ["TransferBenchmark"]),
        .executable(name: "annotation-benchmark", targets: ["AnnotationBenchmark"]),
        .executable(name: "gallery-benchmark-library", targets: ["GalleryBenchmark"]),
        .executable(name: "place-benchmark", targets: ["PlaceBenchmark"]),
        .executable(name: "place-backfill-benchmark", targets: ["PlaceBackfillBenchmark"]),
        .executable(name: "duplicate-benchmark", targets: ["DuplicateBenchmark"]),
        .executable(name: "face-benchmark", targets: ["FaceBenchmark"]),
    ]
    package.targets += [
        // Builds benchmark libraries through the store and starts the daemon on them.
        .target(
            name: "BenchmarkSupport", dependencies: ["LibraryStore", "PhotoLibrary", "TestSupport"],
            path: "Benchmarks/BenchmarkSupport"),
        // Times FetchAssets over the socket beside sqlite3 (Benchmarks/fetch.sh runs it).
        .executableTarget(
            name: "FetchBenchmark",
            dependencies: ["BenchmarkSupport", "PhotoLibrary"],
            path: "Benchmarks/FetchBenchmark"
        ),
        // Times a predicate fetch and the smart albums' counts beside sqlite3, and the daemon's memory
        // (Benchmarks/library-model.sh runs it).
        .executableTarget(
            name: "LibraryModelBenchmark",
            dependencies: ["BenchmarkSupport", "LibraryStore", "PhotoLibrary"],
            path: "Benchmarks/LibraryModelBenchmark"
        ),
        // Times Observe delivery for a large result and for many observers (Benchmarks/observers.sh runs it).
        .executableTarget(
            name: "ObserverBenchmark",
            dependencies: ["BenchmarkSupport", "PhotoLibrary"],
            path: "Benchmarks/ObserverBenchmark"
        ),

        // Times the Photos module's fetches, enumeration and pages beside the raw socket, and the memory of a
        // held result (Benchmarks/photos.sh runs it).
        .executableTarget(
            name: "PhotosBenchmark",
            dependencies: ["BenchmarkSupport", "Photos", "PhotoLibrary", "CompactJSON", "CMalloc", "Varlink"],
            path: "Benchmarks/PhotosBenchmark"
        ),

        // Times thumbnails beside vipsthumbnail and mogrify, cached requests and first degraded replies
        // (Benchmarks/images.sh runs it).
        .executableTarget(
            name: "ImageBenchmark",
            dependencies: ["BenchmarkSupport", "PhotoLibrary"],
            path: "Benchmarks/ImageBenchmark"
        ),

        // Times basic edits beside vips, the edited thumbnail after the commit, and camera data's cost on imports
        // (Benchmarks/edits.sh runs it).
        .executableTarget(
            name: "EditBenchmark",
            dependencies: ["BenchmarkSupport", "PhotoLibrary"],
            path: "Benchmarks/EditBenchmark"
        ),
        // Times PhotoKit's bytes and videos beside cat, cp and ffmpeg by hand (Benchmarks/transfers.sh runs it).
        .executableTarget(
            name: "TransferBenchmark",
            dependencies: ["BenchmarkSupport", "Photos", "PhotoLibrary", "Varlink", "VideoExport", "TestSupport"],
            path: "Benchmarks/TransferBenchmark"
        ),
        // Times RAW thumbnails and decodes beside exiftool + vipsthumbnail and dcraw_emu (Benchmarks/raw.sh runs it).
        .executableTarget(
            name: "RawBenchmark",
            dependencies: ["BenchmarkSupport", "PhotoLibrary"],
            path: "Benchmarks/RawBenchmark"
        ),

        // Times rating and keyword queries beside sqlite3, a rating's sidecar write-back, and imports with sidecars
        // beside imports without (Benchmarks/annotations.sh runs it).
        .executableTarget(
            name: "AnnotationBenchmark",
            dependencies: ["BenchmarkSupport", "LibraryStore", "PhotoLibrary", "PhotoModel", "TestSupport"],
            path: "Benchmarks/AnnotationBenchmark"
        ),

        // Builds the gallery benchmark's library of real, referenced photos (Benchmarks/gallery.sh times the page in
        // Chromium and the thumbnails with wrk).
        .executableTarget(
            name: "GalleryBenchmark",
            dependencies: ["BenchmarkSupport", "LibraryStore", "PhotoModel"],
            path: "Benchmarks/GalleryBenchmark"
        ),

        // Times reverse geocoding beside reverse_geocoder's k-d tree on the same points (Benchmarks/places.sh runs it).
        .executableTarget(
            name: "PlaceBenchmark",
            dependencies: [
                "BenchmarkSupport", "ReverseGeocoding", "TestSupport", "CMalloc",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/PlaceBenchmark"
        ),
        // Times finding and describing the faces of a 12-MP photo with dlib's HOG and CNN detectors on renditions of
        // three sizes (Benchmarks/faces.sh runs it).
        .executableTarget(
            name: "FaceBenchmark",
            dependencies: ["BenchmarkSupport", "FaceRecognition", "TestSupport"],
            path: "Benchmarks/FaceBenchmark"
        ),
        // Times the places backfill of a library from before places beside one sqlite3 UPDATE of every row
        // (Benchmarks/places.sh runs it).
        .executableTarget(
            name: "PlaceBackfillBenchmark",
            dependencies: [
                "BenchmarkSupport", "DaemonCore", "LibraryStore", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/PlaceBackfillBenchmark"
        ),
        // Calibrates the duplicate threshold on a corpus of copies and near-misses, and times grouping at a million
        // fingerprints (Benchmarks/duplicates.sh runs it).
        .executableTarget(
            name: "DuplicateBenchmark",
            dependencies: [
                "BenchmarkSupport", "ImageFingerprinting", "Imaging", "LibraryStore", "PhotoLibrary", "PhotoModel",
                "PhotolibConfig",
            ],
            path: "Benchmarks/DuplicateBenchmark"
        ),

        // Times watched-folder ingest beside sha256sum and inotifywait, and start-up reconciliation (Benchmarks/import.sh).
        .executableTarget(
            name: "ImportBenchmark",
            dependencies: ["BenchmarkSupport", "LibraryStore", "PhotoModel", "Varlink", "FolderWatch"],
            path: "Benchmarks/ImportBenchmark"
        ),
    ]
}
