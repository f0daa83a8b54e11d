/// The varlink IDL of `io.photolibd.Import`, as `GetInterfaceDescription` returns it.
let importInterfaceDescription = """
# Import sources (watched folders) and imports of files by path.
interface io.photolibd.Import

type Source (
  path: string,
  mode: (move, copy, reference),
  recursive: bool,
  watching: bool,
  assetCount: int,
  error: ?string
)

type ImportedFile (
  path: string,
  status: (imported, duplicate, unsupported, failed),
  assetId: ?string,
  error: ?string
)

method ListSources() -> (sources: []Source)

method AddSource(path: string, mode: (move, copy, reference), recursive: ?bool) -> ()

method RemoveSource(path: string) -> ()

# Call with more for progress replies; the last reply lists every path's outcome.
method ImportFiles(paths: []string, mode: ?(move, copy, reference), album: ?string)
  -> (processed: int, total: int, files: ?[]ImportedFile)

method Status() -> (queued: int, processing: int, imported: int, failed: int, sources: int, lastError: ?string)

error NotFound (id: string)
error PermissionDenied ()
error InvalidSource (path: string, reason: string)
error InternalError (reason: string)
"""
