/// The varlink IDL of `io.photolibd.Library`, as `GetInterfaceDescription` returns it.
let libraryInterfaceDescription = """
# The photo library: assets, collections, change transactions and change observation.
interface io.photolibd.Library

type Location (latitude: float, longitude: float, altitude: ?float)

type Resource (
  type: (photo, video, audio, alternatePhoto, pairedVideo),
  originalFilename: string,
  mimeType: string,
  fileSize: int,
  path: ?string
)

# A photo, video or audio item. Dates are RFC 3339 with a numeric offset.
type Asset (
  id: string,
  mediaType: (image, video, audio, unknown),
  mediaSubtypes: []string,
  pixelWidth: int,
  pixelHeight: int,
  creationDate: ?string,
  creationDateSource: ?string,
  modificationDate: ?string,
  addedDate: string,
  location: ?Location,
  duration: float,
  isFavorite: bool,
  isHidden: bool,
  isTrashed: bool,
  burstIdentifier: ?string,
  originalFilename: string,
  fileSize: int,
  orientation: int,
  resources: ?[]Resource
)

type SortDescriptor (key: string, ascending: ?bool)

# Which assets a fetch or an observer selects. Every field is optional.
type AssetQuery (
  collection: ?string,
  ids: ?[]string,
  mediaTypes: ?[]string,
  burstIdentifier: ?string,
  predicate: ?string,
  sort: ?[]SortDescriptor,
  includeHidden: ?bool,
  includeTrashed: ?bool,
  includeAllBurstAssets: ?bool,
  limit: ?int
)

type Collection (
  id: string,
  kind: (album, smartAlbum, moment, folder),
  subtype: string,
  title: string,
  assetCount: ?int,
  startDate: ?string,
  endDate: ?string,
  parentId: ?string
)

# Which collections a fetch or an observer selects. Every field is optional.
type CollectionQuery (
  kind: ?(album, smartAlbum, moment, folder),
  subtype: ?string,
  ids: ?[]string,
  parent: ?string,
  topLevelUserCollections: ?bool,
  containingAsset: ?string,
  predicate: ?string,
  sort: ?[]SortDescriptor,
  limit: ?int
)

# One operation of a change transaction: `op` plus the fields that op uses.
# Ids may be placeholders ("@name") created by an earlier change of the same call.
type Change (
  op: string,
  path: ?string,
  placeholder: ?string,
  target: ?string,
  isFavorite: ?bool,
  isHidden: ?bool,
  creationDate: ?string,
  location: ?Location,
  ids: ?[]string,
  permanently: ?bool,
  title: ?string,
  parent: ?string,
  indexes: ?[]int,
  toIndex: ?int
)

type ChangedObject (
  id: string,
  kind: (asset, collection),
  change: (inserted, changed, removed),
  contentChanged: bool
)

type Move (from: int, to: int)

# A named query's result: the whole ordered ids, or how it changed.
type ResultChange (
  name: string,
  count: int,
  hasIncrementalChanges: ?bool,
  removedIndexes: ?[]int,
  insertedIndexes: ?[]int,
  insertedIds: ?[]string,
  changedIndexes: ?[]int,
  changedIds: ?[]string,
  changedIndexesBefore: ?[]int,
  moves: ?[]Move,
  ids: ?[]string
)

type PersistentChange (
  token: string,
  insertedAssetIds: []string,
  updatedAssetIds: []string,
  deletedAssetIds: []string,
  insertedCollectionIds: []string,
  updatedCollectionIds: []string,
  deletedCollectionIds: []string
)

# Assets matching a query; `count` is the whole result, `assets` the page [offset, offset + pageSize).
method FetchAssets(query: AssetQuery, offset: ?int, pageSize: ?int, includeResources: ?bool)
  -> (count: int, assets: []Asset, token: string)

method FetchCollections(query: CollectionQuery, offset: ?int, pageSize: ?int)
  -> (count: int, collections: []Collection, token: string)

# Applies all changes atomically, as one change event.
method PerformChanges(changes: []Change) -> (token: string, created: [string]string)

# Call with more: the current results first, then one reply per committed transaction.
# The first reply's observerId names the stream for UpdateObservation.
method Observe(assetQueries: ?[string]AssetQuery, collectionQueries: ?[string]CollectionQuery, onlyRelevant: ?bool)
  -> (token: string, previousToken: ?string, objects: ?[]ChangedObject, results: []ResultChange, observerId: ?string)

# Changes a running Observe stream of the same user, from another connection: drops the queries named in
# removeQueries, then adds the others. The reply holds each added query's full result at `token`; the stream
# reports an added query in the replies of the transactions after `token`. An unknown observerId is NotFound.
method UpdateObservation(observerId: string, assetQueries: ?[string]AssetQuery,
  collectionQueries: ?[string]CollectionQuery, removeQueries: ?[]string)
  -> (token: string, results: []ResultChange)

method FetchPersistentChanges(since: string, limit: ?int)
  -> (changes: []PersistentChange, token: string, hasMore: bool)

method AuthorizationStatus() -> (status: (authorized, restricted, denied, notDetermined))

error NotFound (id: string, index: ?int)
error InvalidPredicate (reason: string)
error InvalidChange (index: int, reason: string)
error TokenExpired ()
error PermissionDenied ()
error InternalError (reason: string)
"""
