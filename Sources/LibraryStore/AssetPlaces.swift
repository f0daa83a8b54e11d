import Foundation
import GRDB
import PhotoModel

/// Names positions: the nearest populated place of a location (the daemon's reverse geocoder).
public protocol PlaceResolving: Sendable {
    func lookUp(_ location: Location) -> PlaceLookup
}

/// What a lookup of a location found.
public enum PlaceLookup: Sendable, Hashable {
    /// The nearest populated place.
    case named(AssetPlace)
    /// No populated place near enough (at sea, a position off the globe, Null Island).
    case nowhere
    /// Places cannot be named now (the place table is missing or corrupt): the asset waits for a later lookup.
    case unavailable
}

extension Schema {
    static func registerPlaces(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v12-places") { db in
            // The places the library's assets were taken at, named when they were resolved.
            try db.create(table: "place") { table in
                table.primaryKey("id", .text)
                table.column("city", .text).notNull()
                table.column("region", .text)
                table.column("country", .text).notNull()
                table.column("countryCode", .text).notNull()
            }
            try db.alter(table: "asset") { table in
                table.add(column: "placeId", .text)
                // Whether the location was looked up; located assets from before places (or written while the place
                // table was missing) wait for the background analysis.
                table.add(column: "placeLookedUp", .boolean).notNull().defaults(to: false)
            }
            try db.create(index: "asset_by_place", on: "asset", columns: ["placeId"])
            // Its entries run in rowid order (one key value), so the backfill reads and updates the table in order.
            try db.execute(
                sql: """
                    CREATE INDEX asset_awaiting_place ON asset(placeLookedUp)
                    WHERE placeLookedUp = 0 AND latitude IS NOT NULL
                    """)
        }
    }
}

/// The place columns of `asset` for a location, with the `place` row they point at written first.
struct PlaceColumns {
    var placeId: String?
    var isLookedUp: Bool

    /// Resolves `location` with `places`; without them, or while they cannot name places, the asset waits for a
    /// later lookup.
    init(of location: Location?, places: (any PlaceResolving)?, in db: Database) throws {
        guard let location else {
            self.init(placeId: nil, isLookedUp: true)
            return
        }
        switch places?.lookUp(location) ?? .unavailable {
        case .named(let place):
            try Self.keep(place, in: db)
            self.init(placeId: place.id, isLookedUp: true)
        case .nowhere:
            self.init(placeId: nil, isLookedUp: true)
        case .unavailable:
            self.init(placeId: nil, isLookedUp: false)
        }
    }

    private init(placeId: String?, isLookedUp: Bool) {
        self.placeId = placeId
        self.isLookedUp = isLookedUp
    }

    /// Writes or renames the `place` row of `place`.
    static func keep(_ place: AssetPlace, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO place (id, city, region, country, countryCode) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET city = excluded.city, region = excluded.region,
                  country = excluded.country, countryCode = excluded.countryCode
                  WHERE (city, region, country, countryCode) IS NOT (excluded.city, excluded.region, excluded.country,
                    excluded.countryCode)
                """
        ).execute(arguments: [place.id, place.city, place.region, place.country, place.countryCode])
    }
}

/// A located asset whose place was never looked up.
public struct AssetAwaitingPlace: Sendable, Hashable {
    /// Its row, which the backfill goes by: rows are stored in this order, ids in none.
    let row: Int64
    public var id: String
    public var location: Location
}

/// Where assets were taken: the places named for their locations and the summaries `FetchPlaces` gives (CONTRACT §15).
public struct PlaceRecords: Sendable {
    let writer: LibraryWriter

    /// Up to `limit` located assets whose place was never looked up (the library predates places, or the place table
    /// was missing), in the order they are stored.
    public func assetsAwaitingPlaces(limit: Int) async throws -> [AssetAwaitingPlace] {
        try await writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT rowid, id, latitude, longitude FROM asset INDEXED BY asset_awaiting_place
                        WHERE placeLookedUp = 0 AND latitude IS NOT NULL ORDER BY rowid LIMIT ?
                        """), arguments: [limit]
            ).map { AssetAwaitingPlace(row: $0[0], id: $0[1], location: Location(latitude: $0[2], longitude: $0[3])) }
        }
    }

    /// How many located assets wait for their place.
    public func countAssetsAwaitingPlaces() async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db,
                sql:
                    "SELECT count(*) FROM asset INDEXED BY asset_awaiting_place WHERE placeLookedUp = 0 AND latitude IS NOT NULL"
            )
                ?? 0
        }
    }

    /// Stores places looked up in the background, in one transaction that leaves `modificationDate` alone; assets
    /// that gained a place are announced as changed. An asset whose location changed meanwhile is left to its own write.
    ///
    /// The commit is not synced: a machine that crashes before the next synced commit loses lookups that are made
    /// again, since their assets still wait.
    @discardableResult
    public func recordPlaces(_ lookups: [(asset: AssetAwaitingPlace, place: AssetPlace?)]) async throws -> ChangeToken?
    {
        try await writer.recordChange(syncsCommit: false) { transaction in
            let db = transaction.db
            var kept = Set<String>()
            for (asset, place) in lookups {
                if let place, kept.insert(place.id).inserted { try PlaceColumns.keep(place, in: db) }
                try db.cachedStatement(
                    sql: """
                        UPDATE asset SET placeId = ?, placeLookedUp = 1
                        WHERE rowid = ? AND placeLookedUp = 0 AND latitude = ? AND longitude = ?
                        """
                ).execute(arguments: [place?.id, asset.row, asset.location.latitude, asset.location.longitude])
                if db.changesCount > 0, place != nil { transaction.note(.asset, asset.id, .changed) }
            }
        }.committed.map { ChangeToken(libraryId: writer.libraryId, generation: $0.generation) }
    }

    /// The library's cities: one per place its assets (as `query` selects them) were taken at, with their count, the
    /// newest as key asset and their mean position on the sphere, the most photographed first.
    public func fetchPlaces(_ query: AssetQuery) async throws -> [PlaceSummary] {
        let now = Date()
        return try await writer.read { db in
            let selection = try AssetSelection.compiling(query, now: now, in: db)
            // The key asset is each city's newest; positions are summed as unit vectors, so that a city's photos
            // either side of the antimeridian average to it, not to the other side of the globe.
            let rows = try Row.fetchAll(
                db,
                sql: """
                    WITH members AS (\(selection.idsSQL)),
                    located AS (
                      SELECT asset.id, asset.placeId, coalesce(asset.creationTime, asset.addedTime) AS time,
                        radians(asset.latitude) AS latitude, radians(asset.longitude) AS longitude
                      FROM members CROSS JOIN asset ON asset.id = members.id WHERE asset.placeId IS NOT NULL
                    ),
                    cities AS (
                      SELECT placeId, count(*) AS assetCount,
                        sum(cos(latitude) * cos(longitude)) AS x, sum(cos(latitude) * sin(longitude)) AS y,
                        sum(sin(latitude)) AS z
                      FROM located GROUP BY placeId
                    )
                    SELECT place.id, place.city, place.region, place.country, place.countryCode, cities.assetCount,
                      (SELECT id FROM located WHERE located.placeId = cities.placeId
                        ORDER BY time DESC, id LIMIT 1),
                      cities.x, cities.y, cities.z
                    FROM cities JOIN place ON place.id = cities.placeId
                    ORDER BY cities.assetCount DESC, place.city, place.id
                    """, arguments: selection.arguments)
            return rows.map { row in
                let place = AssetPlace(id: row[0], city: row[1], region: row[2], country: row[3], countryCode: row[4])
                let (x, y, z): (Double, Double, Double) = (row[7], row[8], row[9])
                return PlaceSummary(
                    place: place, assetCount: row[5], keyAssetId: row[6],
                    latitude: atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi, longitude: atan2(y, x) * 180 / .pi)
            }
        }
    }
}
