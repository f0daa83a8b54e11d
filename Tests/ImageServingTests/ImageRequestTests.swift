import Imaging
import PhotoModel
import PhotolibProtocol
import Testing

@testable import DaemonCore

private func request(
    _ target: PixelSize?, _ contentMode: ImageRequest.ContentMode = .aspectFit,
    _ resizeMode: ImageRequest.ResizeMode = .fast, crop: NormalizedRect? = nil
) -> ImageRequest {
    ImageRequest(assetId: "a", targetSize: target, contentMode: contentMode, resizeMode: resizeMode, crop: crop)
}

private let photo = PixelSize(width: 4032, height: 3024)
private let square = PixelSize(width: 256, height: 256)

@Test(arguments: [
    (request(nil), "original"),
    (request(square, .aspectFit, .none), "original"),
    (request(square), "short-256"),
    (request(square, .aspectFill), "short-256"),
    (request(PixelSize(width: 100, height: 100)), "short-128"),
    (request(PixelSize(width: 1000, height: 1000)), "short-1024"),
    (request(PixelSize(width: 3000, height: 3000)), "original"),
    // Larger than the photo: its own size, the same rendition as the whole image.
    (request(PixelSize(width: 9000, height: 9000)), "original"),
    (request(square, .aspectFit, .exact), "fit-256x256"),
    (request(square, .aspectFill, .exact), "fill-256x256"),
    (
        request(square, .aspectFit, .exact, crop: NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 0.25)),
        "fit-256x256-crop-0.5,0.0,0.5,0.25"
    ),
    (request(square, .aspectFit, .fast, crop: NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 0.25)), "short-256"),
])
func eachRequestIsAnsweredByOneNamedRendition(request: ImageRequest, variant: String) {
    #expect(request.finalRendition(displayedSize: photo).variant == variant)
}

@Test(
    arguments: [
        PixelSize(width: 100, height: 100), PixelSize(width: 256, height: 256), PixelSize(width: 700, height: 300),
        PixelSize(width: 2000, height: 2000), PixelSize(width: 5000, height: 5000),
    ],
    [ImageRequest.ContentMode.aspectFit, .aspectFill])
func theFastModeIsNeverSmallerThanTheExactSize(target: PixelSize, contentMode: ImageRequest.ContentMode) {
    for displayed in [photo, PixelSize(width: 3024, height: 4032), PixelSize(width: 640, height: 480)] {
        let fast = request(target, contentMode).finalRendition(displayedSize: displayed).spec.outputSize(
            forUpright: displayed)
        let exact = request(target, contentMode, .exact).finalRendition(displayedSize: displayed).spec.outputSize(
            forUpright: displayed)
        #expect(fast.width >= exact.width && fast.height >= exact.height, "\(target) \(contentMode) of \(displayed)")
    }
}

@Test func withoutAKnownSizeTheFastModeMakesTheExactSize() {
    #expect(request(square).finalRendition(displayedSize: nil).variant == "fit-256x256")
}

/// PhotoKit's delivery modes: the opportunistic one streams a degraded image only to a call that takes several
/// replies, the fast one gives what is at hand, the high-quality one decodes a RAW's sensor data.
@Test(
    arguments: [
        (nil, true, ImageDelivery.degradedThenFinal), (ImageDeliveryMode.opportunistic, false, .finalOnly),
        (.fast, true, .firstAtHand), (.fast, false, .firstAtHand),
        (.highQuality, true, .finalFromSensorData), (.highQuality, false, .finalFromSensorData),
    ] as [(ImageDeliveryMode?, Bool, ImageDelivery)])
func theDeliveryModeAndTheCallsRepliesDecideTheDelivery(
    mode: ImageDeliveryMode?, streams: Bool, delivery: ImageDelivery
) {
    #expect(ImageDelivery(mode, streams: streams) == delivery)
    #expect(delivery.continuesAfterDegraded == (delivery == .degradedThenFinal))
}
