import Foundation
import Hummingbird
import PhotoLibrary

/// `POST /api/changes`: what the page's controls do, each one `PerformChanges` call (one change event).
///
/// The body is `{action, ids?, album?, title?, value?, rotate?, crop?, rating?, addKeywords?, removeKeywords?,
/// caption?, collections?, folder?, from?}`: `favorite`/`hide` (with `value`), `trash`, `restore`, `addToAlbum` (`album`), `removeFromAlbum`
/// (`album`), `createAlbum` (`title`, the `ids` added), `edit` (one id; `rotate` in degrees clockwise and/or `crop` on
/// the photo as shown), `revert`; the annotations of contract §14: `rate` (`rating`, −1…5), `tag` (`addKeywords`,
/// `removeKeywords`), `setTitle` (one id, `title`), `setCaption` (one id, `caption`), empty text clearing them; for
/// the sidebar, `createFolder` (`title`) and `moveToFolder` (`collections` into `folder`, or out of `from` to the top
/// level when `folder` is null); `mergeDuplicates` (the `ids` of one group of duplicates, contract §17: the best is
/// kept, the others go to Recently Deleted). The answer is `{token, created?}`.
struct ChangeRoutes<Context: RequestContext>: Sendable {
    let connections: LibraryConnections

    struct Action: Decodable {
        var action: String
        var ids: [String]?
        var album: String?
        var title: String?
        var value: Bool?
        var rotate: Int?
        var crop: NormalizedRect?
        var rating: Int?
        var addKeywords: [String]?
        var removeKeywords: [String]?
        var caption: String?
        var collections: [String]?
        var folder: String?
        var from: String?
    }

    func add(to router: Router<Context>) {
        router.post("/api/changes") { request, context in
            let body = try await request.body.collect(upTo: 1 << 20)
            guard let action = try? JSONDecoder().decode(Action.self, from: Data(buffer: body)) else {
                throw GalleryError.badRequest("the change is not JSON of the expected shape")
            }
            let result = try await perform(action)
            var headers = HTTPFields()
            headers[.contentType] = "application/json; charset=utf-8"
            let created = result.created.values.first
            let reply = try JSONEncoder().encode(["token": result.token, "created": created].compactMapValues { $0 })
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply)))
        }
    }

    private func perform(_ action: Action) async throws(GalleryError) -> ChangeResult {
        let ids = action.ids ?? []
        guard ids.count <= 10_000, ids.allSatisfy(AssetIdentifier.isWellFormed) else {
            throw .badRequest("malformed asset ids")
        }
        var changes = PhotoLibrary.ChangeBuilder()
        switch action.action {
        case "favorite": changes.setFavorite(action.value ?? true, for: try nonEmpty(ids))
        case "hide": changes.setHidden(action.value ?? true, for: try nonEmpty(ids))
        case "trash": changes.deleteAssets(try nonEmpty(ids))
        case "restore": changes.restoreAssets(try nonEmpty(ids))
        case "addToAlbum": changes.addAssets(try nonEmpty(ids), to: try album(action))
        case "removeFromAlbum": changes.removeAssets(try nonEmpty(ids), from: try album(action))
        case "createAlbum":
            let placeholder = changes.createAlbum(title: try collectionTitle(action))
            if !ids.isEmpty { changes.addAssets(ids, to: placeholder) }
        case "createFolder":
            _ = changes.createFolder(title: try collectionTitle(action))
        case "moveToFolder":
            let moved = action.collections ?? []
            guard !moved.isEmpty, moved.allSatisfy(AssetIdentifier.isWellFormed) else {
                throw .badRequest("no albums given")
            }
            if let folder = action.folder {
                changes.addChildCollections(moved, to: try wellFormed(folder))
            } else if let from = action.from {
                changes.removeChildCollections(moved, from: try wellFormed(from))
            } else {
                throw .badRequest("no folder given")
            }
        case "edit":
            let id = try single(ids, "an edit is of one photo")
            if let crop = action.crop, !crop.isInsideUnitSquare {
                throw .badRequest("the crop is not inside the photo")
            }
            guard (action.rotate ?? 0) % 90 == 0 else { throw .badRequest("photos turn by quarter turns") }
            let current = try await currentEdit(of: id)
            changes.editAsset(
                id, basic: EditComposition.compose(current, turning: action.rotate ?? 0, cropping: action.crop))
        case "rate":
            guard let rating = action.rating else { throw .badRequest("a rating needs its stars") }
            changes.setRating(rating, for: try nonEmpty(ids))
        case "tag":
            let added = action.addKeywords ?? [], removed = action.removeKeywords ?? []
            guard !added.isEmpty || !removed.isEmpty else { throw .badRequest("no keywords to add or remove") }
            changes.updateKeywords(of: try nonEmpty(ids), adding: added, removing: removed)
        case "setTitle":
            changes.setTitle(action.title?.nilIfBlank, for: try single(ids, "a title is of one photo"))
        case "setCaption":
            changes.setCaption(action.caption?.nilIfBlank, for: try single(ids, "a caption is of one photo"))
        case "revert":
            changes.revertAsset(try single(ids, "a revert is of one photo"))
        case "mergeDuplicates":
            guard Set(ids).count > 1 else { throw .badRequest("a merge is of two or more copies of a photo") }
            changes.mergeDuplicates(ids)
        default: throw .badRequest("unknown action \(action.action)")
        }
        let built = changes
        return try await connections.withLibrary(retry: false) { library throws(PhotoLibraryError) in
            try await library.performChanges(built)
        }
    }

    /// The photo's basic edit, or none when it has no edit (or one in a format the gallery cannot resume).
    private func currentEdit(of id: String) async throws(GalleryError) -> BasicAdjustment {
        let input = try await connections.withLibrary { library throws(PhotoLibraryError) in
            try await library.requestContentEditingInput(
                for: id,
                canHandle: [
                    AdjustmentFormat(
                        formatIdentifier: BasicAdjustment.formatIdentifier, formatVersion: BasicAdjustment.formatVersion
                    )
                ])
        }
        guard let adjustment = input.adjustment, adjustment.isBasic,
            let data = Data(base64Encoded: adjustment.data), let basic = try? BasicAdjustment(data: data)
        else { return BasicAdjustment() }
        return basic
    }

    private func nonEmpty(_ ids: [String]) throws(GalleryError) -> [String] {
        guard !ids.isEmpty else { throw .badRequest("no assets given") }
        return ids
    }

    private func single(_ ids: [String], _ refusal: String) throws(GalleryError) -> String {
        guard ids.count == 1 else { throw .badRequest(refusal) }
        return ids[0]
    }

    private func album(_ action: Action) throws(GalleryError) -> String {
        guard let album = action.album else { throw .badRequest("no album given") }
        return try wellFormed(album)
    }

    private func wellFormed(_ collection: String) throws(GalleryError) -> String {
        guard AssetIdentifier.isWellFormed(collection) else { throw .badRequest("malformed collection id") }
        return collection
    }

    private func collectionTitle(_ action: Action) throws(GalleryError) -> String {
        guard let title = action.title?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty,
            title.count <= 500
        else { throw .badRequest("an album or folder needs a title") }
        return title
    }
}
