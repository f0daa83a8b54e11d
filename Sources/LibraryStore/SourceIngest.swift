import GRDB
import PhotoModel

/// How a file joins the asset of its group.
private struct GroupJoin {
    /// The asset's current primary resource becomes this type (when the newcomer is the still), else nil.
    var demotedPrimary: ResourceType?
    /// The newcomer's resource type.
    var resourceType: ResourceType
    var addedSubtypes: MediaSubtypes

    /// The join of a `newcomer` to an asset whose files play `roles` (`primary` among them); nil when it does not pair.
    static func plan(primary: FileRole, roles: Set<FileRole>, newcomer: FileRole) -> GroupJoin? {
        switch (primary, newcomer) {
        case (.still, .raw) where !roles.contains(.raw):
            GroupJoin(demotedPrimary: nil, resourceType: .alternatePhoto, addedSubtypes: [])
        case (.still, .movie) where !roles.contains(.movie):
            GroupJoin(demotedPrimary: nil, resourceType: .pairedVideo, addedSubtypes: .photoLive)
        case (.raw, .still):
            GroupJoin(demotedPrimary: .alternatePhoto, resourceType: .photo, addedSubtypes: [])
        case (.movie, .still):
            GroupJoin(demotedPrimary: .pairedVideo, resourceType: .photo, addedSubtypes: .photoLive)
        default:
            nil
        }
    }
}

/// The resource that already has a file's content.
struct ContentHolder {
    var assetId: String
    var type: String
    var path: String
    var isOwnedByLibrary: Bool
    var isTrashed: Bool
    var sourcePath: String?

    /// The resource whose file has content `hash`: one recorded with its source file, else an asset's primary file.
    static func find(_ hash: String, in db: Database) throws -> ContentHolder? {
        let row =
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT r.assetId, r.type, r.path, r.isOwnedByLibrary, a.trashedTime IS NOT NULL, rf.sourcePath
                        FROM resource_file rf JOIN resource r ON r.assetId = rf.assetId AND r.type = rf.type
                        JOIN asset a ON a.id = rf.assetId WHERE rf.contentHash = ? LIMIT 1
                        """), arguments: [hash])
            ?? Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT a.id, r.type, r.path, r.isOwnedByLibrary, a.trashedTime IS NOT NULL, NULL
                        FROM asset a JOIN resource r ON r.assetId = a.id
                        WHERE a.contentHash = ? AND r.type IN ('photo', 'video', 'audio') LIMIT 1
                        """), arguments: [hash])
        return row.map {
            ContentHolder(
                assetId: $0[0], type: $0[1], path: $0[2], isOwnedByLibrary: $0[3],
                isTrashed: $0[4], sourcePath: $0[5])
        }
    }
}

extension ChangeTransaction {
    /// Commits one prepared file; see `LibraryDatabase.ingest`.
    mutating func ingest(_ request: IngestRequest, fileExists: (String) -> Bool) throws -> IngestOutcome {
        let file = request.file
        // A watched folder's copy that a merge moved away stays out: the kept asset has its content.
        if file.sourceRoot != nil,
            let kept = try String.fetchOne(
                db.cachedStatement(sql: "SELECT keptAssetId FROM merged_away_content WHERE contentHash = ?"),
                arguments: [file.contentHash])
        {
            return .duplicate(assetId: kept, libraryCopy: nil)
        }
        if let holder = try ContentHolder.find(file.contentHash, in: db) {
            return try takeOver(holder, with: request, fileExists: fileExists)
        }
        if request.isReference,
            let previous = try String.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT rf.assetId FROM resource_file rf JOIN resource r ON r.assetId = rf.assetId AND r.type = rf.type
                        WHERE rf.sourcePath = ? AND r.isOwnedByLibrary = 0
                        """), arguments: [file.sourcePath])
        {
            return try replaceContent(of: previous, with: request)
        }
        if let groupKey = file.groupKey, file.role != .other,
            let (assetId, join) = try groupJoin(groupKey, newcomer: file.role)
        {
            try attach(request, to: assetId, as: join)
            return .joined(assetId: assetId)
        }
        let (id, _) = try insertAsset(request.draft, id: request.newAssetId)
        try insertRecord(file, assetId: id, type: request.draft.resources[0].type)
        note(.asset, id, .inserted, contentChanged: true)
        return .inserted(assetId: id)
    }

    /// A referenced file is gone: its asset goes to Recently Deleted if it was the photo, video or audio;
    /// a RAW or a Live Photo's movie is dropped from its asset.
    mutating func detach(_ file: KnownFile) throws {
        switch file.resourceType {
        case .photo, .video, .audio:
            try apply(.deleteAssets(ids: [file.assetId], permanently: false), index: 0, draft: nil)
        case .alternatePhoto, .pairedVideo:
            try db.execute(
                sql: "DELETE FROM resource WHERE assetId = ? AND type = ?",
                arguments: [file.assetId, file.resourceType.rawValue])
            if file.resourceType == .pairedVideo {
                try db.execute(
                    sql: "UPDATE asset SET mediaSubtypes = mediaSubtypes & ? WHERE id = ?",
                    arguments: [~MediaSubtypes.photoLive.rawValue, file.assetId])
            }
            note(.asset, file.assetId, .changed, contentChanged: true)
        }
    }

    /// A file whose content the library has: the same referenced file again, a referenced file that moved while
    /// nobody watched, or a duplicate.
    private mutating func takeOver(
        _ holder: ContentHolder, with request: IngestRequest,
        fileExists: (String) -> Bool
    ) throws -> IngestOutcome {
        let file = request.file
        let isSameFile = holder.sourcePath == file.sourcePath
        guard request.isReference, !holder.isOwnedByLibrary, isSameFile || !fileExists(holder.path) else {
            return .duplicate(assetId: holder.assetId, libraryCopy: holder.isOwnedByLibrary ? holder.path : nil)
        }
        try db.execute(
            sql: """
                UPDATE resource_file SET sourcePath = ?, sourceRoot = ?, device = ?, inode = ?, size = ?, modificationTime = ?,
                  isOffline = 0 WHERE assetId = ? AND type = ?
                """,
            arguments: [
                file.sourcePath, file.sourceRoot, Int64(bitPattern: file.identity.device),
                Int64(bitPattern: file.identity.inode), file.identity.size, file.identity.modificationTime,
                holder.assetId, holder.type,
            ])
        if holder.isTrashed {
            try apply(.restoreAssets(ids: [holder.assetId]), index: 0, draft: nil)
        }
        guard !isSameFile else {
            return holder.isTrashed ? .relinked(assetId: holder.assetId) : .unchanged(assetId: holder.assetId)
        }
        try db.execute(
            sql: "UPDATE resource SET path = ? WHERE assetId = ? AND type = ?",
            arguments: [file.sourcePath, holder.assetId, holder.type])
        note(.asset, holder.assetId, .changed)
        return .relinked(assetId: holder.assetId)
    }

    /// A referenced file's content changed in place: its resource (and, for the photo, the asset) take the new content.
    private mutating func replaceContent(of assetId: String, with request: IngestRequest) throws -> IngestOutcome {
        let resource = request.draft.resources[0]
        let type =
            try String.fetchOne(
                db,
                sql: """
                    SELECT type FROM resource_file WHERE assetId = ? AND sourcePath = ?
                    """, arguments: [assetId, request.file.sourcePath]) ?? resource.type.rawValue
        try db.execute(
            sql: "UPDATE resource SET mimeType = ?, fileSize = ?, originalFilename = ? WHERE assetId = ? AND type = ?",
            arguments: [resource.mimeType, resource.fileSize, resource.originalFilename, assetId, type])
        try db.execute(sql: "DELETE FROM resource_file WHERE assetId = ? AND type = ?", arguments: [assetId, type])
        try insertRecord(request.file, assetId: assetId, type: ResourceType(rawValue: type) ?? resource.type)
        if ["photo", "video", "audio"].contains(type) {
            try updateContent(of: assetId, from: request.draft, subtypes: [])
            try writeAnnotations(request.draft.annotations, ofAsset: assetId)
        }
        note(.asset, assetId, .changed, contentChanged: true)
        return .replaced(assetId: assetId)
    }

    // MARK: - Groups

    /// The asset of `groupKey` that a `newcomer` can join, and how.
    private func groupJoin(_ groupKey: String, newcomer: FileRole) throws -> (String, GroupJoin)? {
        guard
            let assetId = try String.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT rf.assetId FROM resource_file rf JOIN asset a ON a.id = rf.assetId
                        WHERE rf.groupKey = ? AND a.trashedTime IS NULL LIMIT 1
                        """), arguments: [groupKey])
        else { return nil }
        var roles: Set<FileRole> = []
        var primary = FileRole.other
        for row in try Row.fetchAll(
            db, sql: "SELECT role, type FROM resource_file WHERE assetId = ?", arguments: [assetId])
        {
            guard let role = FileRole(rawValue: row[0]) else { continue }
            roles.insert(role)
            if ["photo", "video", "audio"].contains(row[1] as String) { primary = role }
        }
        return GroupJoin.plan(primary: primary, roles: roles, newcomer: newcomer).map { (assetId, $0) }
    }

    private mutating func attach(_ request: IngestRequest, to assetId: String, as join: GroupJoin) throws {
        var resource = request.draft.resources[0]
        resource.type = join.resourceType
        if let demoted = join.demotedPrimary {
            let primary = try String.fetchOne(
                db,
                sql: """
                    SELECT type FROM resource WHERE assetId = ? AND type IN ('photo', 'video', 'audio')
                    """, arguments: [assetId])
            try db.execute(
                sql: "UPDATE resource SET type = ? WHERE assetId = ? AND type = ?",
                arguments: [demoted.rawValue, assetId, primary])
        }
        try db.execute(
            sql: """
                INSERT INTO resource (assetId, type, originalFilename, mimeType, fileSize, path, isOwnedByLibrary)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                assetId, resource.type.rawValue, resource.originalFilename, resource.mimeType,
                resource.fileSize, resource.path, resource.isOwnedByLibrary,
            ])
        try insertRecord(request.file, assetId: assetId, type: resource.type)
        try adoptAnnotations(request.draft.annotations, ofAsset: assetId)
        if join.demotedPrimary != nil {
            try updateContent(of: assetId, from: request.draft, subtypes: join.addedSubtypes)
        } else {
            try db.execute(
                sql: "UPDATE asset SET mediaSubtypes = mediaSubtypes | ?, modificationTime = ? WHERE id = ?",
                arguments: [join.addedSubtypes.rawValue, now, assetId])
        }
        note(.asset, assetId, .changed, contentChanged: true)
    }

    /// Gives an asset the metadata and content hash of a new primary file, keeping a creation date from a better source.
    private func updateContent(of assetId: String, from draft: AssetDraft, subtypes: MediaSubtypes) throws {
        let current = try String.fetchOne(
            db, sql: "SELECT creationDateSource FROM asset WHERE id = ?", arguments: [assetId]
        )
        .flatMap(CreationDateSource.init(rawValue:))
        let keepsDate = current.map { $0.rank < (draft.creationDateSource?.rank ?? Int.max) } ?? false
        let primary = draft.resources[0]
        if draft.location != nil {
            let place = try PlaceColumns(of: draft.location, places: places, in: db)
            try db.execute(
                sql: "UPDATE asset SET placeId = ?, placeLookedUp = ? WHERE id = ?",
                arguments: [place.placeId, place.isLookedUp, assetId])
        }
        try db.execute(
            sql: """
                UPDATE asset SET mediaType = ?, mediaSubtypes = ?, pixelWidth = ?, pixelHeight = ?, orientation = ?,
                  latitude = coalesce(?, latitude), longitude = coalesce(?, longitude), altitude = coalesce(?, altitude),
                  duration = ?, originalFilename = ?, fileSize = ?, contentHash = ?, modificationTime = ?,
                  burstIdentifier = ?, collapsesIntoBurst = CASE WHEN ? IS NULL THEN 0 ELSE collapsesIntoBurst END,
                  \(CameraColumns.assignments), cameraDataRead = 1
                WHERE id = ?
                """,
            arguments: StatementArguments(
                [
                    draft.mediaType.photoKitValue, draft.mediaSubtypes.union(subtypes).rawValue, draft.pixelWidth,
                    draft.pixelHeight, draft.orientation, draft.location?.latitude, draft.location?.longitude,
                    draft.location?.altitude, draft.duration, primary.originalFilename, primary.fileSize,
                    draft.contentHash, now, draft.burstIdentifier, draft.burstIdentifier,
                ] + CameraColumns.values(of: draft.camera) + [assetId]))
        // An edited asset keeps showing its edit: the new size is the original's.
        try db.execute(
            sql: """
                UPDATE asset_edit SET originalPixelWidth = ?, originalPixelHeight = ? WHERE assetId = ?;
                UPDATE asset SET pixelWidth = e.pixelWidth, pixelHeight = e.pixelHeight FROM asset_edit e
                  WHERE asset.id = ? AND e.assetId = asset.id
                """, arguments: [draft.pixelWidth, draft.pixelHeight, assetId, assetId])
        if !keepsDate {
            try db.execute(
                sql: "UPDATE asset SET creationTime = ?, creationOffset = ?, creationDateSource = ? WHERE id = ?",
                arguments: [
                    draft.creationDate?.secondsSince1970, draft.creationDate?.utcOffsetSeconds,
                    draft.creationDateSource?.rawValue, assetId,
                ])
        }
    }

    private func insertRecord(_ file: SourceFile, assetId: String, type: ResourceType) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO resource_file (assetId, type, contentHash, sourceRoot, sourcePath, groupKey, role,
                  device, inode, size, modificationTime, isOffline)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
                """
        ).execute(arguments: [
            assetId, type.rawValue, file.contentHash, file.sourceRoot, file.sourcePath, file.groupKey,
            file.role.rawValue, Int64(bitPattern: file.identity.device),
            Int64(bitPattern: file.identity.inode), file.identity.size, file.identity.modificationTime,
        ])
    }
}

extension CreationDateSource {
    /// Lower is more trustworthy: a date the user set, then the camera's, then guesses.
    var rank: Int {
        switch self {
        case .user: 0
        case .exif: 1
        case .exifWithGPSOffset: 2
        case .exifWithoutOffset: 3
        case .xmp: 4
        case .xmpWithoutOffset: 5
        case .gps: 6
        case .mediaMetadata: 7
        case .fileName: 8
        case .fileModification: 9
        }
    }
}
