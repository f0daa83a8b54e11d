import GRDB
import PhotoModel
import PredicateQuery

/// A checked predicate compiled to one SQL expression: its structure becomes SQL, every value a bound argument.
///
/// Tests are two-valued like the predicate's own logic: a comparison with a column that is NULL is false, never
/// NULL, so `NOT` keeps NSPredicate's meaning. AND and OR lists nest as balanced trees, keeping SQLite's
/// expression depth logarithmic in the number of terms.
struct PredicateSQL {
    var sql: String
    var arguments = StatementArguments()

    /// The column of each asset predicate key; the same columns sort assets by those keys.
    static let assetColumns: [String: String] = [
        "localIdentifier": "asset.id", "mediaType": "asset.mediaType", "mediaSubtypes": "asset.mediaSubtypes",
        "creationDate": "asset.creationTime", "modificationDate": "asset.modificationTime",
        "addedDate": "asset.addedTime", "pixelWidth": "asset.pixelWidth", "pixelHeight": "asset.pixelHeight",
        "duration": "asset.duration", "isFavorite": "asset.isFavorite", "isHidden": "asset.isHidden",
        "burstIdentifier": "asset.burstIdentifier", "originalFilename": "asset.originalFilename",
        "fileSize": "asset.fileSize", "cameraMake": "asset.cameraMake", "cameraModel": "asset.cameraModel",
        "lensModel": "asset.lensModel", "fNumber": "asset.fNumber", "exposureTime": "asset.exposureTime", "iso": "asset.iso",
        "focalLength": "asset.focalLength", "focalLength35mm": "asset.focalLength35mm",
        "hasAdjustments": "asset.hasAdjustments", "isTrashed": "(asset.trashedTime IS NOT NULL)", "orientation": "asset.orientation",
        "creationDateSource": "asset.creationDateSource", "latitude": "asset.latitude", "longitude": "asset.longitude",
        "altitude": "asset.altitude", "rating": "asset.rating", "title": "asset.title", "caption": "asset.caption",
        "city": placeColumn("city"), "region": placeColumn("region"), "country": placeColumn("country"),
        "countryCode": placeColumn("countryCode"),
    ]

    /// A column of the asset's place, NULL without one.
    private static func placeColumn(_ name: String) -> String {
        "(SELECT place.\(name) FROM place WHERE place.id = asset.placeId)"
    }

    /// The SQL function that folds text for `[c]` and `[d]`: `photolib_fold(text, options)`.
    static let foldFunction = DatabaseFunction("photolib_fold", argumentCount: 2, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]), let options = Int.fromDatabaseValue(values[1]) else {
            return nil
        }
        return TextFolding.fold(text, TextOptions(rawValue: options))
    }

    /// Compiles `predicate`, whose keys all have a column in `columns`.
    init(_ predicate: QueryPredicate, columns: [String: String]) {
        sql = ""
        sql = expression(predicate, columns: columns)
    }

    private mutating func expression(_ predicate: QueryPredicate, columns: [String: String]) -> String {
        switch predicate {
        case .constant(let value): return value ? "1" : "0"
        case .not(let inner): return "NOT (\(expression(inner, columns: columns)))"
        case .and(let terms): return balanced(terms[...], joinedBy: "AND", columns: columns)
        case .or(let terms): return balanced(terms[...], joinedBy: "OR", columns: columns)
        case .test(let test):
            guard case .anyElement(let condition) = test.condition else { return self.test(test, column: columns[test.key.name]!) }
            // Through the keyword index: the assets that have a matching keyword, not a test of every asset's list.
            let element = KeyTest(key: PredicateKey(test.key.name, .text), condition: condition)
            return "asset.id IN (SELECT assetId FROM asset_keyword WHERE \(self.test(element, column: "asset_keyword.keyword")))"
        }
    }

    private mutating func balanced(_ terms: ArraySlice<QueryPredicate>, joinedBy conjunction: String,
                                   columns: [String: String]) -> String {
        guard terms.count > 1 else { return expression(terms.first!, columns: columns) }
        let middle = terms.startIndex + terms.count / 2
        let left = balanced(terms[..<middle], joinedBy: conjunction, columns: columns)
        let right = balanced(terms[middle...], joinedBy: conjunction, columns: columns)
        return "(\(left) \(conjunction) \(right))"
    }

    private mutating func test(_ test: KeyTest, column: String) -> String {
        let notNull = test.key.isOptional ? " AND \(column) IS NOT NULL" : ""
        switch test.condition {
        case .isNil:
            return "\(column) IS NULL"
        case .compare(.equal, let value, let options):
            return "\(folded(column, options)) IS \(bind(value))"
        case .compare(.notEqual, let value, let options):
            return "\(folded(column, options)) IS NOT \(bind(value))"
        case .compare(let operation, let value, _):
            return "(\(column) \(operation.rawValue) \(bind(value))\(notNull))"
        case .between(let lower, let upper):
            return "(\(column) BETWEEN \(bind(lower)) AND \(bind(upper))\(notNull))"
        case .oneOf(let values, let includesNil, let options):
            let list = values.isEmpty ? "0" : "\(folded(column, options)) IN (\(values.map { bind($0) }.joined(separator: ", ")))"
            let inList = "(\(list)\(notNull))"
            return includesNil ? "(\(column) IS NULL OR \(inList))" : inList
        case .matches(let pattern, let options):
            // Texts too short to match are skipped before GLOB: a long pattern against a shorter text costs their product.
            let longEnough = pattern.minimumLength == 0 ? ""
                : "length(\(folded(column, options))) >= \(bind(.integer(Int64(pattern.minimumLength)))) AND "
            return "(\(longEnough)\(folded(column, options)) GLOB \(bind(.text(pattern.glob)))\(notNull))"
        case .masked(let mask, let operation, let value):
            return "((\(column) & \(bind(.integer(mask)))) \(operation.rawValue) \(bind(.integer(value))))"
        case .anyElement:
            preconditionFailure("a list's test is compiled by expression(_:columns:)")
        }
    }

    /// The column, through the fold function when `options` ask for folding.
    private mutating func folded(_ column: String, _ options: TextOptions) -> String {
        options.isEmpty ? column : "photolib_fold(\(column), \(bind(.integer(Int64(options.rawValue)))))"
    }

    /// Appends `value` to the arguments and returns its placeholder.
    private mutating func bind(_ value: PredicateValue) -> String {
        switch value {
        case .integer(let number): arguments += [number]
        case .real(let number): arguments += [number]
        case .text(let text): arguments += [text]
        case .boolean(let flag): arguments += [flag]
        case .texts: preconditionFailure("a list is never a literal")
        }
        return "?"
    }
}

extension QueryPredicate {
    /// Parses a query's predicate text; a refusal becomes the library's `invalidPredicate`.
    static func checked(_ text: String, schema: PredicateSchema) throws(LibraryError) -> QueryPredicate {
        do {
            return try QueryPredicate(parsing: text, schema: schema)
        } catch {
            throw .invalidPredicate(reason: error.description)
        }
    }
}
