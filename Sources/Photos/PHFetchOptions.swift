import Foundation
import PhotoLibrary

/// PhotoKit's `PHFetchOptions`: what a fetch selects and how it sorts.
public final class PHFetchOptions: NSObject, @unchecked Sendable {
    // @unchecked: settings, as in PhotoKit: the caller sets them before the call, which only reads them.
    /// NSPredicate-format filter; `PHPredicate` stands in for `NSPredicate`.
    public var predicate: PHPredicate?
    /// `PHSortDescriptor` stands in for `NSSortDescriptor`.
    public var sortDescriptors: [PHSortDescriptor]?
    public var includeHiddenAssets = false
    public var includeAllBurstAssets = false
    /// 0: no limit.
    public var fetchLimit = 0
    /// False: change details for the results of this fetch carry no indexes, only the new result.
    public var wantsIncrementalChangeDetails = true
    /// The sources of the assets fetched; every asset here is of the user's library, so a set without
    /// `.typeUserLibrary` fetches nothing.
    public var includeAssetSourceTypes: PHAssetSourceType = [.typeUserLibrary, .typeCloudShared, .typeiTunesSynced]
    /// Accepted; every asset fetched carries its `extendedMetadata` (keywords, caption) here, without another call.
    public var prefetchAssetExtendedMetadata = false

    public override init() {}
}

/// The stand-in for `NSPredicate(format:)`, which Linux Foundation lacks: an NSPredicate-format string with
/// its arguments substituted, checked by the daemon when the fetch runs.
public class PHPredicate: NSObject, @unchecked Sendable {
    // @unchecked: immutable; Swift cannot check a class open to subclasses, or a subclass of one.
    /// The predicate with its arguments written in.
    public let predicateFormat: String

    /// `%@` (strings, numbers, dates, arrays, objects), `%K` (a key), `%d`/`%i`/`%ld`/`%u` (integers),
    /// `%f` (numbers) and `%%` are substituted as `NSPredicate(format:)` does.
    public init(format predicateFormat: String, _ arguments: CVarArg...) {
        self.predicateFormat = Self.substitute(predicateFormat, arguments)
    }

    /// As `init(format:_:)`, with the arguments in an array.
    public init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        self.predicateFormat = Self.substitute(predicateFormat, arguments ?? [])
    }

    public override var description: String { predicateFormat }

    private static func substitute(_ format: String, _ arguments: [Any]) -> String {
        var result = ""
        var remaining = arguments[...]
        var characters = format[...]
        while let character = characters.popFirst() {
            guard character == "%" else {
                result.append(character)
                continue
            }
            // Length modifiers (l, ll, h, q, z) come before the conversion.
            while let modifier = characters.first, "lhqz".contains(modifier) { characters.removeFirst() }
            guard let conversion = characters.popFirst() else { break }
            if conversion == "%" {
                result.append("%")
                continue
            }
            let argument = remaining.popFirst()
            switch conversion {
            case "K": result += argument.map { "\($0)" } ?? ""
            case "@": result += literal(argument)
            default: result += argument.map(number) ?? "nil"
            }
        }
        return result
    }

    /// A value written as a predicate literal.
    private static func literal(_ value: Any?) -> String {
        switch value {
        case nil: return "nil"
        case let string as String: return PredicateText.quoted(string)
        case let string as NSString: return PredicateText.quoted(String(describing: string))
        case let date as Date: return PredicateText.quoted(Timestamp(date).rfc3339)
        case let bool as Bool: return bool ? "YES" : "NO"
        case let object as PHObject: return PredicateText.quoted(object.localIdentifier)
        case let number as NSNumber: return number.stringValue
        case let array as [Any]: return "{" + array.map(literal).joined(separator: ", ") + "}"
        case let array as NSArray: return "{" + array.map(literal).joined(separator: ", ") + "}"
        case let url as URL: return PredicateText.quoted(url.absoluteString)
        case let value?: return number(value)
        }
    }

    private static func number(_ value: Any) -> String {
        switch value {
        case let bool as Bool: return bool ? "1" : "0"
        case let integer as any BinaryInteger: return String(describing: integer)
        case let float as any BinaryFloatingPoint: return "\(Double(float))"
        case let number as NSNumber: return number.stringValue
        default: return literal(value)
        }
    }
}

/// The stand-in for `NSCompoundPredicate`: predicates joined with AND or OR, or one negated.
public final class PHCompoundPredicate: PHPredicate, @unchecked Sendable {
    // @unchecked: immutable; Swift cannot check a class open to subclasses, or a subclass of one.
    /// Foundation's `NSCompoundPredicate.LogicalType`.
    public enum LogicalType: UInt, Sendable {
        case not = 0
        case and = 1
        case or = 2
    }

    public let compoundPredicateType: LogicalType
    public let subpredicates: [PHPredicate]

    public init(type: LogicalType, subpredicates: [PHPredicate]) {
        compoundPredicateType = type
        self.subpredicates = subpredicates
        let parts = subpredicates.map { "(\($0.predicateFormat))" }
        let format: String =
            switch type {
            // An empty AND is true and an empty OR false, as NSCompoundPredicate has them.
            case .and: parts.isEmpty ? "TRUEPREDICATE" : parts.joined(separator: " AND ")
            case .or: parts.isEmpty ? "FALSEPREDICATE" : parts.joined(separator: " OR ")
            case .not: "NOT " + (parts.first ?? "(TRUEPREDICATE)")
            }
        super.init(format: format, argumentArray: nil)
    }

    public convenience init(andPredicateWithSubpredicates subpredicates: [PHPredicate]) {
        self.init(type: .and, subpredicates: subpredicates)
    }

    public convenience init(orPredicateWithSubpredicates subpredicates: [PHPredicate]) {
        self.init(type: .or, subpredicates: subpredicates)
    }

    public convenience init(notPredicateWithSubpredicate predicate: PHPredicate) {
        self.init(type: .not, subpredicates: [predicate])
    }
}

/// The stand-in for `NSSortDescriptor(key:ascending:)` in `PHFetchOptions.sortDescriptors`.
public final class PHSortDescriptor: NSObject, Sendable {
    public let key: String?
    public let ascending: Bool

    public init(key: String?, ascending: Bool) {
        self.key = key
        self.ascending = ascending
    }
}

/// PhotoKit's property names where the library's differ.
private let collectionKeys = ["localizedTitle": "title", "estimatedAssetCount": "assetCount"]

extension Optional where Wrapped == PHFetchOptions {
    /// The asset query these options ask for.
    func assetQuery() -> AssetQuery {
        guard let options = self else { return AssetQuery() }
        return AssetQuery(
            ids: options.includeAssetSourceTypes.contains(.typeUserLibrary) ? nil : [],
            predicate: options.predicate?.predicateFormat,
            sort: options.sortDescriptors?.compactMap { descriptor in
                descriptor.key.map { SortDescriptor(key: $0, ascending: descriptor.ascending) }
            },
            includeHidden: options.includeHiddenAssets ? true : nil,
            includeAllBurstAssets: options.includeAllBurstAssets ? true : nil,
            limit: options.fetchLimit > 0 ? options.fetchLimit : nil
        )
    }

    /// The collection query these options ask for, with PhotoKit's key names translated.
    func collectionQuery() -> CollectionQuery {
        guard let options = self else { return CollectionQuery() }
        return CollectionQuery(
            predicate: options.predicate.map { PredicateKeys.renaming(collectionKeys, in: $0.predicateFormat) },
            sort: options.sortDescriptors?.compactMap { descriptor in
                descriptor.key.map { SortDescriptor(key: collectionKeys[$0] ?? $0, ascending: descriptor.ascending) }
            },
            limit: options.fetchLimit > 0 ? options.fetchLimit : nil
        )
    }

    var wantsIncrementalChangeDetails: Bool { self?.wantsIncrementalChangeDetails ?? true }
}

/// Key renaming in predicate text, leaving quoted strings alone.
enum PredicateKeys {
    static func renaming(_ names: [String: String], in format: String) -> String {
        var result = ""
        var word = ""
        var quote: Character?
        var escaped = false
        func flushWord() {
            result += names[word] ?? word
            word = ""
        }
        for character in format {
            if let open = quote {
                result.append(character)
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == open {
                    quote = nil
                }
            } else if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
            } else {
                flushWord()
                if character == "\"" || character == "'" { quote = character }
                result.append(character)
            }
        }
        flushWord()
        return result
    }
}
