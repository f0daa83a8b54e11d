import Foundation
import MediaProbe
import PhotoModel
import Testing
import TestSupport

/// ffprobe's JSON as real files produce it, and the real ffprobe on files made by ffmpeg.
@Suite struct MediaProbeTests {
    @Test func anIPhoneMovieGivesItsRotatedSizeLocalDatePlaceAndFrameRate() throws {
        let json = """
            {"streams": [
              {"codec_type": "video", "width": 1920, "height": 1080, "avg_frame_rate": "240/1", "r_frame_rate": "240/1",
               "side_data_list": [{"side_data_type": "Display Matrix", "rotation": -90}]},
              {"codec_type": "audio"}],
             "format": {"format_name": "mov,mp4,m4a,3gp,3g2,mj2", "duration": "3.500000",
               "tags": {"creation_time": "2024-01-31T09:15:00.000000Z",
                        "com.apple.quicktime.creationdate": "2024-01-31T10:15:00+0100",
                        "com.apple.quicktime.location.ISO6709": "+48.8584+002.2945+035.000/"}}}
            """
        let info = try #require(MediaProber.mediaInfo(fromJSON: Data(json.utf8)))
        #expect(info.kind == .video)
        #expect(info.pixelWidth == 1080 && info.pixelHeight == 1920)
        #expect(info.duration == 3.5)
        #expect(info.frameRate == 240)
        #expect(info.creationDate?.rfc3339 == "2024-01-31T10:15:00+01:00")
        #expect(info.creationDateHasLocalOffset)
        #expect(info.location == Location(latitude: 48.8584, longitude: 2.2945, altitude: 35))
    }

    @Test func androidsCaptureRateTellsSlowMotionAndTimeLapseFromPlainVideo() throws {
        func info(playing rate: String, captured capture: String?) throws -> MediaInfo {
            let tags = capture.map { #", "tags": {"com.android.capture.fps": "\#($0)"}"# } ?? ""
            let json = #"{"streams": [{"codec_type": "video", "width": 1920, "height": 1080, "avg_frame_rate": "\#(rate)"}], "#
                + #""format": {"format_name": "mov,mp4,m4a,3gp,3g2,mj2", "duration": "10"\#(tags)}}"#
            return try #require(MediaProber.mediaInfo(fromJSON: Data(json.utf8)))
        }
        let slowMotion = try info(playing: "30/1", captured: "240.000000")
        #expect(slowMotion.captureFrameRate == 240 && slowMotion.isSlowMotion && !slowMotion.isTimeLapse)
        let timeLapse = try info(playing: "30/1", captured: "0.500000")
        #expect(timeLapse.isTimeLapse && !timeLapse.isSlowMotion)
        for plain in [try info(playing: "30/1", captured: "30.000000"), try info(playing: "30000/1001", captured: nil),
                      try info(playing: "30/1", captured: "nan"), try info(playing: "30/1", captured: "fast")] {
            #expect(!plain.isTimeLapse && !plain.isSlowMotion)
        }
        #expect(try info(playing: "240/1", captured: nil).isSlowMotion)
    }

    @Test func coverArtDoesNotMakeASongAVideoAndZeroDatesAreIgnored() throws {
        let json = """
            {"streams": [{"codec_type": "audio"},
                         {"codec_type": "video", "width": 500, "height": 500, "disposition": {"attached_pic": 1}}],
             "format": {"format_name": "mp3", "duration": "200.1", "tags": {"creation_time": "1970-01-01T00:00:00.000000Z"}}}
            """
        let info = try #require(MediaProber.mediaInfo(fromJSON: Data(json.utf8)))
        #expect(info.kind == .audio)
        #expect(info.pixelWidth == 0)
        #expect(info.creationDate == nil)
    }

    @Test func textIsNotMedia() {
        #expect(MediaProber.mediaInfo(fromJSON: Data("{\"streams\": [], \"format\": {}}".utf8)) == nil)
        #expect(MediaProber.mediaInfo(fromJSON: Data("not json".utf8)) == nil)
    }

    @Test func theRealFFprobeReadsAMovieFFmpegMade() throws {
        let folder = try TemporaryDirectory()
        let movie = folder.file("clip.mp4")
        try runTool("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=120:duration=1",
                                        "-metadata", "creation_time=2023-06-01T12:00:00Z", "-pix_fmt", "yuv420p", movie])
        let info = try MediaProber().probe(path: movie)
        #expect(info.kind == .video)
        #expect(info.pixelWidth == 320 && info.pixelHeight == 240)
        #expect(info.frameRate == 120)
        #expect(abs(info.duration - 1) < 0.1)
        #expect(info.creationDate?.rfc3339 == "2023-06-01T12:00:00+00:00")
    }

    @Test func garbageNamedMP4IsUnreadableNotACrash() throws {
        let folder = try TemporaryDirectory()
        let fake = folder.file("fake.mp4")
        try Data("this is not a movie".utf8).write(to: URL(fileURLWithPath: fake))
        #expect {
            try MediaProber().probe(path: fake)
        } throws: { error in
            guard case .unreadable = error as? MediaProbeError else { return false }
            return true
        }
    }
}
