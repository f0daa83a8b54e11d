import Foundation
import PhotoLibrary
import Synchronization

/// PhotoKit's `PHPhotoLibraryChangeObserver`.
public protocol PHPhotoLibraryChangeObserver: AnyObject {
    /// Called once per committed transaction, in commit order, on a queue of the module's.
    func photoLibraryDidChange(_ changeInstance: PHChange)
}

/// PhotoKit's `PHChange`: what one committed transaction changed.
public final class PHChange: NSObject, Sendable {
    let generation: Int64
    /// The objects the transaction inserted, changed or removed.
    package let objects: [ObjectChange]
    let transitions: [String: ResultTransition]

    init(generation: Int64, objects: [ObjectChange], transitions: [String: ResultTransition]) {
        self.generation = generation
        self.objects = objects
        self.transitions = transitions
    }

    /// How `object` changed; nil when the transaction left it alone.
    public func changeDetails<T: PHObject>(for object: T) -> PHObjectChangeDetails<T>? {
        guard let change = objects.first(where: { $0.id == object.localIdentifier }) else { return nil }
        return PHObjectChangeDetails(before: object, change: change)
    }

    /// How the transaction changed `fetchResult`; nil when it did not. Exact for any result the program holds,
    /// also one fetched before earlier changes.
    public func changeDetails<T>(for fetchResult: PHFetchResult<T>) -> PHFetchResultChangeDetails<T>? {
        guard let registration = fetchResult.registration, let transition = transitions[registration.name] else {
            return nil
        }
        let changed = Set(objects.filter { $0.change == .changed }.map(\.id))
        var change = transition.change
        if fetchResult.generation != transition.generationBefore, change.hasIncrementalChanges != false {
            change = FetchResultChange.difference(
                name: change.name, from: Array(fetchResult.identifiers),
                to: Array(transition.identifiersAfter), changed: changed)
        }
        if !fetchResult.wantsIncrementalChangeDetails {
            change = FetchResultChange.full(name: change.name, ids: Array(transition.identifiersAfter))
        }
        let after = fetchResult.successor(
            identifiers: transition.identifiersAfter, generation: generation,
            changed: changed.union(change.changedIds ?? []))
        return PHFetchResultChangeDetails(before: fetchResult, after: after, change: change)
    }
}

/// PhotoKit's `PHFetchResultChangeDetails`, with `changedIndexesBefore` beyond it.
///
/// `removedIndexes` and `changedIndexesBefore` are positions in `fetchResultBeforeChanges`; `insertedIndexes`,
/// `changedIndexes` and each move's destination are positions in `fetchResultAfterChanges`.
public final class PHFetchResultChangeDetails<ObjectType: AnyObject>: NSObject, Sendable {
    public let fetchResultBeforeChanges: PHFetchResult<ObjectType>
    public let fetchResultAfterChanges: PHFetchResult<ObjectType>
    private let change: FetchResultChange

    init(before: PHFetchResult<ObjectType>, after: PHFetchResult<ObjectType>, change: FetchResultChange) {
        fetchResultBeforeChanges = before
        fetchResultAfterChanges = after
        self.change = change
    }

    /// The changes that turn `fromResult` into `toResult` (removals, insertions, moves), with `changedObjects` as
    /// the objects whose properties changed: a program's own diff of two results, as TZImagePickerController makes.
    public convenience init(
        from fromResult: PHFetchResult<ObjectType>, to toResult: PHFetchResult<ObjectType>, changedObjects: [ObjectType]
    ) {
        let changed = Set(changedObjects.compactMap { ($0 as? PHObject)?.localIdentifier })
        let change = FetchResultChange.difference(
            name: "", from: Array(fromResult.identifiers), to: Array(toResult.identifiers), changed: changed)
        self.init(before: fromResult, after: toResult, change: change)
    }

    /// False when only `fetchResultAfterChanges` is known: reload what shows the result.
    public var hasIncrementalChanges: Bool { change.hasIncrementalChanges != false }

    public var removedIndexes: IndexSet? { indexes(change.removedIndexes) }

    public var removedObjects: [ObjectType] {
        guard let indexes = removedIndexes else { return [] }
        return fetchResultBeforeChanges.objects(at: indexes)
    }

    public var insertedIndexes: IndexSet? { indexes(change.insertedIndexes) }

    public var insertedObjects: [ObjectType] {
        guard let indexes = insertedIndexes else { return [] }
        return fetchResultAfterChanges.objects(at: indexes)
    }

    /// Positions in the result after the changes of the objects whose properties changed.
    public var changedIndexes: IndexSet? { indexes(change.changedIndexes) }

    /// The same objects' positions in the result before the changes.
    public var changedIndexesBefore: IndexSet? { indexes(change.changedIndexesBefore) }

    public var changedObjects: [ObjectType] {
        guard let indexes = changedIndexes else { return [] }
        return fetchResultAfterChanges.objects(at: indexes)
    }

    public var hasMoves: Bool { hasIncrementalChanges && !(change.moves ?? []).isEmpty }

    /// Calls `handler` with each move: from its position in the result before (less the removals), to its
    /// position in the result after.
    public func enumerateMoves(_ handler: (Int, Int) -> Void) {
        guard hasIncrementalChanges else { return }
        for move in change.moves ?? [] { handler(move.from, move.to) }
    }

    private func indexes(_ positions: [Int]?) -> IndexSet? {
        guard hasIncrementalChanges else { return nil }
        return IndexSet(positions ?? [])
    }
}

/// PhotoKit's `PHObjectChangeDetails`.
public final class PHObjectChangeDetails<ObjectType: PHObject>: NSObject, Sendable {
    public let objectBeforeChanges: ObjectType
    private let change: ObjectChange
    private let after = Mutex<ObjectType??>(nil)

    init(before: ObjectType, change: ObjectChange) {
        objectBeforeChanges = before
        self.change = change
    }

    /// The object as the transaction left it (read from the daemon when first asked for), or nil once deleted.
    public var objectAfterChanges: ObjectType? {
        if let after = after.withLock({ $0 }) { return after }
        let fetched = objectWasDeleted ? nil : fetchAfter()
        after.withLock { $0 = .some(fetched) }
        return fetched
    }

    public var assetContentChanged: Bool { change.contentChanged }
    public var objectWasDeleted: Bool { change.change == .removed }

    private func fetchAfter() -> ObjectType? {
        let id = objectBeforeChanges.localIdentifier
        if objectBeforeChanges is PHAsset {
            let asset = try? LibraryClient.shared.call { library throws(PhotoLibraryError) in
                try await library.assets(withIds: [id])[id]
            }
            return asset.map { PHAsset($0) as? ObjectType } ?? nil
        }
        let collection = try? LibraryClient.shared.call { library throws(PhotoLibraryError) in
            try await library.collections(withIds: [id])[id]
        }
        return collection.map { PHCollection.make($0) as? ObjectType } ?? nil
    }
}
