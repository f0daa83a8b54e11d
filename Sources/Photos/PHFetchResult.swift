import Foundation
import PhotoLibrary
import Synchronization

/// PhotoKit's `PHFetchResult`: the ordered result of a fetch.
///
/// It holds the result's identifiers and makes objects on demand, a batch at a time, so a result of a million
/// assets costs its identifiers. The fetch is sent when the result is made; its first use waits for the answer.
/// Every result the program holds is followed by the daemon: `PHChange` tells how it changed, and
/// `fetchResultAfterChanges` is the result after the change.
public final class PHFetchResult<ObjectType: AnyObject>: NSObject, @unchecked Sendable {
    // @unchecked: `ObjectType` need not be `Sendable`; objects pass between threads under `state`'s lock only.
    /// How many objects are made per call to the daemon.
    static var batchSize: Int { 500 }

    /// The result as the daemon answered it: fetches run as soon as they are made, and the first use of a
    /// result waits for its answer, as PhotoKit's lazy fetch results do.
    private let contents: Pending<(ResultIdentifiers, Int64)>
    let registration: ResultRegistration?
    let wantsIncrementalChangeDetails: Bool
    private let state = Mutex(State())

    private struct State {
        var objectsById: [String: ObjectType] = [:]
        /// Batches being made, by batch number: a batch read ahead is waited for rather than asked for twice.
        var batchesInFlight: [Int: Pending<Void>] = [:]
        /// The batch last made on demand, to tell which way the program reads.
        var lastBatchRead = -1
    }

    private init(
        contents: Pending<(ResultIdentifiers, Int64)>, registration: ResultRegistration?,
        wantsIncrementalChangeDetails: Bool
    ) {
        self.contents = contents
        self.registration = registration
        self.wantsIncrementalChangeDetails = wantsIncrementalChangeDetails
        registration?.retain()
    }

    deinit {
        registration?.release()
    }

    /// A fetch of assets, followed for changes; an empty result when the daemon cannot be reached.
    convenience init(assets query: AssetQuery, options: PHFetchOptions?) where ObjectType == PHAsset {
        self.init(registered: .assets(query), wantsIncrementalChangeDetails: options.wantsIncrementalChangeDetails)
    }

    /// A fetch of collections, followed for changes.
    convenience init(collections query: CollectionQuery, options: PHFetchOptions?) {
        self.init(registered: .collections(query), wantsIncrementalChangeDetails: options.wantsIncrementalChangeDetails)
    }

    /// A result of objects the program holds (a transient collection's), in their order; not followed for changes.
    convenience init(fixed objects: [ObjectType]) {
        let identifiers = objects.compactMap { ($0 as? PHObject)?.localIdentifier }
        self.init(
            contents: Pending((ResultIdentifiers(identifiers), -1)), registration: nil,
            wantsIncrementalChangeDetails: false)
        let given = Unchecked(objects)
        state.withLock { state in
            for (identifier, object) in zip(identifiers, given.value) { state.objectsById[identifier] = object }
        }
    }

    private convenience init(registered query: FollowedQuery, wantsIncrementalChangeDetails: Bool) {
        let (registration, contents) = ChangeStream.shared.follow(query)
        self.init(
            contents: contents, registration: registration, wantsIncrementalChangeDetails: wantsIncrementalChangeDetails
        )
        registration.release()
    }

    /// The identifiers of the result, in order (waiting for the daemon's answer the first time).
    var identifiers: ResultIdentifiers { loaded.identifiers }
    /// The generation of the library the identifiers are at.
    var generation: Int64 { loaded.generation }

    private var loaded: (identifiers: ResultIdentifiers, generation: Int64) {
        (try? contents.get()) ?? (ResultIdentifiers([]), -1)
    }

    /// A result of the same query with other identifiers (after a change), sharing the objects that did not change.
    func successor(
        identifiers: ResultIdentifiers, generation: Int64, changed: Set<String>
    ) -> PHFetchResult<ObjectType> {
        let next = PHFetchResult(
            contents: Pending((identifiers, generation)), registration: registration,
            wantsIncrementalChangeDetails: wantsIncrementalChangeDetails)
        let kept = Unchecked(state.withLock { $0.objectsById.filter { !changed.contains($0.key) } })
        next.state.withLock { $0.objectsById = kept.value }
        return next
    }

    public var count: Int { identifiers.count }

    public var firstObject: ObjectType? { identifiers.isEmpty ? nil : object(at: 0) }

    public var lastObject: ObjectType? { identifiers.isEmpty ? nil : object(at: identifiers.count - 1) }

    /// The object at `index`; an index out of range is a precondition failure, as in PhotoKit.
    ///
    /// Objects are made a batch at a time; the next batch in the direction the program reads is asked for
    /// while the program works through this one, so reading a result in order waits for the daemon once.
    public func object(at index: Int) -> ObjectType {
        let identifiers = self.identifiers
        precondition(
            identifiers.indices.contains(index), "index \(index) beyond bounds [0 .. \(identifiers.count - 1)]")
        let identifier = identifiers[index]
        if let object = state.withLock({ $0.objectsById[identifier] }) { return object }
        let batch = index / Self.batchSize
        let making = startMaking(batch: batch, of: identifiers)
        let step = state.withLock { state in
            defer { state.lastBatchRead = batch }
            return batch < state.lastBatchRead ? -1 : 1
        }
        startMaking(batch: batch + step, of: identifiers)
        try? making?.get()
        return state.withLock { $0.objectsById[identifier] } ?? Self.missing(identifier)
    }

    /// Starts making the objects of a batch that are not made yet; the work, or nil when there is none.
    @discardableResult
    private func startMaking(batch: Int, of identifiers: ResultIdentifiers) -> Pending<Void>? {
        let start = batch * Self.batchSize
        guard start >= 0, start < identifiers.count else { return nil }
        return state.withLock { state in
            if let making = state.batchesInFlight[batch] { return making }
            let wanted = identifiers[start..<min(start + Self.batchSize, identifiers.count)]
                .filter { state.objectsById[$0] == nil }
            guard !wanted.isEmpty else { return nil }
            let making = ClientExecutor.run { [self] in
                let made = Unchecked(await makeObjects(wanted))
                self.state.withLock { state in
                    state.objectsById.merge(made.value) { _, new in new }
                    state.batchesInFlight[batch] = nil
                }
            }
            state.batchesInFlight[batch] = making
            return making
        }
    }

    public subscript(index: Int) -> ObjectType { object(at: index) }

    public func objects(at indexes: IndexSet) -> [ObjectType] {
        let wanted = indexes.map { identifiers[$0] }
        load(wanted.filter { id in state.withLock { $0.objectsById[id] == nil } })
        return indexes.map { object(at: $0) }
    }

    public func contains(_ anObject: ObjectType) -> Bool {
        index(of: anObject) != NSNotFound
    }

    /// The first index of the object, or `NSNotFound`.
    public func index(of anObject: ObjectType) -> Int {
        guard let object = anObject as? PHObject else { return NSNotFound }
        return identifiers.firstIndex(of: object.localIdentifier) ?? NSNotFound
    }

    /// The first index of the object within `range`, or `NSNotFound`.
    public func index(of anObject: ObjectType, in range: NSRange) -> Int {
        guard let object = anObject as? PHObject, let bounds = Range(range), bounds.upperBound <= identifiers.count
        else { return NSNotFound }
        return identifiers[bounds].firstIndex(of: object.localIdentifier) ?? NSNotFound
    }

    /// Calls `block` with each object in order until it sets the stop flag.
    public func enumerateObjects(_ block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void) {
        enumerateObjects(at: IndexSet(integersIn: identifiers.indices), options: [], using: block)
    }

    public func enumerateObjects(
        options: NSEnumerationOptions = [],
        using block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void
    ) {
        enumerateObjects(at: IndexSet(integersIn: identifiers.indices), options: options, using: block)
    }

    /// Calls `block` with the objects at `indexes`, backwards with `.reverse`, until it sets the stop flag.
    public func enumerateObjects(
        at indexes: IndexSet, options: NSEnumerationOptions = [],
        using block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void
    ) {
        var stop = ObjCBool(false)
        let order: [Int] = options.contains(.reverse) ? indexes.reversed() : Array(indexes)
        for index in order {
            block(object(at: index), index, &stop)
            if stop.boolValue { return }
        }
    }

    /// How many assets of this result have the media type.
    public func countOfAssets(with mediaType: PHAssetMediaType) -> Int {
        var count = 0
        enumerateObjects { object, _, _ in
            if (object as? PHAsset)?.mediaType == mediaType { count += 1 }
        }
        return count
    }

    public override var description: String {
        "<PHFetchResult: count=\(count)>"
    }

    /// Makes the objects of these identifiers that are not made yet, in one call.
    private func load(_ wanted: [String]) {
        let missing = state.withLock { state in wanted.filter { state.objectsById[$0] == nil } }
        guard !missing.isEmpty, let made = try? ClientExecutor.wait({ await self.makeObjects(missing) }) else { return }
        let handed = Unchecked(made)
        state.withLock { $0.objectsById.merge(handed.value) { _, new in new } }
    }

    /// The objects of these identifiers, read from the daemon; none when it cannot be read (the error is logged).
    private func makeObjects(_ identifiers: [String]) async -> [String: ObjectType] {
        do {
            if ObjectType.self == PHAsset.self {
                let assets = try await LibraryClient.shared.callAsync { library throws(PhotoLibraryError) in
                    try await library.assets(withIds: identifiers)
                }
                return assets.mapValues { PHAsset($0) as! ObjectType }
            }
            let collections = try await LibraryClient.shared.callAsync { library throws(PhotoLibraryError) in
                try await library.collections(withIds: identifiers)
            }
            return collections.compactMapValues { PHCollection.make($0) as? ObjectType }
        } catch {
            PhotosLog.report("objects of a fetch result could not be read", error)
            return [:]
        }
    }

    /// An object for an identifier the library no longer has: deleted since the fetch.
    private static func missing(_ identifier: String) -> ObjectType {
        let gone = AssetCollection(
            id: identifier, kind: .album, subtype: .albumRegular, title: "", assetCount: 0,
            startDate: nil, endDate: nil, parentId: nil)
        if ObjectType.self == PHAsset.self {
            let asset = Asset(
                id: identifier, mediaType: .unknown, pixelWidth: 0, pixelHeight: 0, creationDate: nil,
                modificationDate: nil, addedDate: Timestamp(secondsSince1970: 0), location: nil,
                originalFilename: "", fileSize: 0)
            return PHAsset(asset) as! ObjectType
        }
        return PHCollection.make(gone) as! ObjectType
    }
}

extension PHFetchResult: NSFastEnumeration {
    public var photoObjects: [PHObject] {
        var objects: [PHObject] = []
        enumerateObjects { object, _, _ in if let object = object as? PHObject { objects.append(object) } }
        return objects
    }
}

/// The objects a change request method takes: Apple's API types them `NSFastEnumeration`, which Linux Foundation
/// lacks. An `NSArray` of objects or placeholders, a Swift array of them, or a `PHFetchResult` all conform.
public protocol NSFastEnumeration {
    /// The library objects enumerated, in order; other elements are left out.
    var photoObjects: [PHObject] { get }
}

extension NSArray: NSFastEnumeration {
    public var photoObjects: [PHObject] { compactMap { $0 as? PHObject } }
}

extension Array: NSFastEnumeration {
    public var photoObjects: [PHObject] { compactMap { $0 as? PHObject } }
}
