import CompactJSON
import PhotoModel

// A page of assets as the daemon writes it, assets first, and as a client reads it, whole or as it arrives.

extension AssetFetchResult: JSONReadable {
    /// Reads a page as the `Decodable` conformance does, without `JSONDecoder`'s cost per asset.
    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var assets: [Asset]?, members = MembersBesideAssets()
        try json.readObject { key, json throws(JSONReadError) in
            if case "assets" = key { assets = try json.readArray(of: Asset.self) } else { try members.read(key, &json) }
        }
        guard let assets else { throw json.error("an asset page lacks its assets") }
        self = try members.page(of: assets, json)
    }

    /// A page's members other than its assets, read in whatever order they come.
    private struct MembersBesideAssets {
        var count: Int?, token: String?

        mutating func read(_ key: JSONKey, _ json: inout JSONReader) throws(JSONReadError) {
            switch key {
            case "count": count = try json.readInt()
            case "token": token = try json.readString()
            default: try json.skipValue()
            }
        }

        func page(of assets: [Asset], _ json: JSONReader) throws(JSONReadError) -> AssetFetchResult {
            guard let count, let token else { throw json.error("an asset page lacks its count or token") }
            return AssetFetchResult(count: count, assets: assets, token: token)
        }
    }
}

extension AssetFetchResult: JSONArrayLedObject {
    public static var leadingArrayKey: StaticString { "assets" }

    public static func readElement(_ json: inout JSONReader, appendingTo assets: inout [Asset]) throws(JSONReadError) {
        assets.append(try Asset(reading: &json))
    }

    public init(elements assets: [Asset], readingMembersAfterArray json: inout JSONReader) throws(JSONReadError) {
        var members = MembersBesideAssets()
        try json.readRemainingMembers { key, json throws(JSONReadError) in try members.read(key, &json) }
        self = try members.page(of: assets, json)
    }

    /// Writes the start of a page, up to its first asset: the assets lead, so that a client reads them as they
    /// arrive while the daemon is still reading the rest (see `JSONArrayLedObject`).
    public static func writeOpening(to json: inout JSONWriter) {
        json.beginObject()
        json.key("assets"); json.beginArray()
    }

    /// Writes the end of a page, after its last asset.
    public static func writeClosing(count: Int, token: String, to json: inout JSONWriter) {
        json.endArray()
        json.key("count"); json.int(count)
        json.key("token"); json.string(token)
        json.endObject()
    }
}

extension AssetFetchResult: JSONWritable {
    public func write(to json: inout JSONWriter) {
        Self.writeOpening(to: &json)
        for asset in assets { asset.write(to: &json) }
        Self.writeClosing(count: count, token: token, to: &json)
    }
}
