/// The varlink IDL of `io.photolibd.Images`, as `GetInterfaceDescription` returns it.
let imagesInterfaceDescription = """
# Images of assets, PHImageManager-style, with an opportunistic thumbnail cache.
interface io.photolibd.Images

type Rect (x: float, y: float, width: float, height: float)

# An image of the asset, EXIF orientation applied and without metadata; `path` is a file the caller can read
# (a JPEG, or a PNG for images with transparency). Videos give a poster frame.
# No target size (or -1 x -1) means the whole image. resizeMode fast (the default) is close to the target and
# never smaller; exact fits (aspectFit) or covers (aspectFill) the target, after normalizedCropRect, in 0...1
# coordinates of the upright image; none is the image's own size.
# deliveryMode opportunistic (the default), called with more: a degraded image first when one is at hand, then
# the final one; highQuality: one final image; fast: one image, degraded if that is what is at hand.
# version: current, unadjusted or original (all the original: the library keeps no edits).
method RequestImage(
  assetId: string,
  targetWidth: ?int,
  targetHeight: ?int,
  contentMode: ?(aspectFit, aspectFill),
  resizeMode: ?(fast, exact, none),
  deliveryMode: ?(opportunistic, highQuality, fast),
  normalizedCropRect: ?Rect,
  version: ?string
) -> (requestId: string, path: string, width: int, height: int, mimeType: string, isDegraded: bool)

# The original file, unchanged.
method RequestImageData(assetId: string, version: ?string)
  -> (path: string, mimeType: string, orientation: int, fileSize: int, originalFilename: string)

# Makes, in the background, the images fast requests for this target size would return.
method StartCaching(assetIds: []string, targetWidth: int, targetHeight: int, contentMode: ?(aspectFit, aspectFill)) -> ()

# Withdraws the StartCaching hints of these assets (all when absent) whose images are not made yet.
method StopCaching(assetIds: ?[]string) -> ()

error NotFound (id: string)
error PermissionDenied ()
error ImageUnavailable (assetId: string, reason: string)
error InternalError (reason: string)
"""
