/// The varlink IDL of `io.photolibd.Images`, as `GetInterfaceDescription` returns it.
let imagesInterfaceDescription = """
# Images of assets, PHImageManager-style, with an opportunistic thumbnail cache.
interface io.photolibd.Images

type Rect (x: float, y: float, width: float, height: float)

# An image of the asset, EXIF orientation applied; `path` is a file the caller can read.
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

method StartCaching(assetIds: []string, targetWidth: int, targetHeight: int, contentMode: ?(aspectFit, aspectFill)) -> ()

method StopCaching(assetIds: ?[]string) -> ()

error NotFound (id: string)
error PermissionDenied ()
error ImageUnavailable (assetId: string, reason: string)
error InternalError (reason: string)
"""
