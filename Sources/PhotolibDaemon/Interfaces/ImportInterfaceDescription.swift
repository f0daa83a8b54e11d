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
  error: ?string,
  # starting, reconciling, watching, polling (the watch limit was reached) or offline (the folder is missing).
  state: string,
  offlineAssetCount: int,
  # Defined in the config file (else added with AddSource, and removable).
  isConfigured: bool
)

type FailedFile (path: string, reason: string)

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

# recentFailures: the latest failed files, newest last; pollingSources and offlineSources: paths of such sources.
method Status() -> (queued: int, processing: int, imported: int, failed: int, sources: int, lastError: ?string,
  recentFailures: []FailedFile, pollingSources: []string, offlineSources: []string)

error NotFound (id: string)
error PermissionDenied ()
error InvalidSource (path: string, reason: string)
error InternalError (reason: string)
"""
