import CompactJSON
import Foundation
import NIOCore
import PhotoLibrary

/// The events a page's stream carries (Server-Sent Events), and the JSON of views and sections the page's API
/// answers with, written once per change and shared by every page that shows the view.
///
/// - `hello`: `{daemon, token}` first on every stream.
/// - `sections`: `{view, token, count, index?, sections}`: what a change did to a view; `index` (the list of
///   `[key, count]`) when sections appeared, went or changed size; `sections` the changed ones with their tiles.
/// - `collections`: `{collections}` the sidebar's albums, folders and smart albums with their counts.
/// - `places`: `{token, places}` the library's cities, to the pages that show the Places view (LibraryFeed+Places).
/// - `duplicates`: `{token, groups}` the groups of duplicates, to the pages that show the Duplicates view
///   (LibraryFeed+Duplicates).
/// - `daemon`: `{state: "up" | "down"}`.
/// - `reset`: `{reason}`: the page fetches its view again (the daemon came back, the page fell behind, its token
///   is too old).
enum PageEvent {
    /// Sections above this many tiles are sent without them: the page fetches them when they come into sight.
    static let largestSentSection = 2000

    static func hello(daemonUp: Bool, token: String?) -> ByteBuffer {
        var json = JSONWriter(capacity: 128)
        json.beginObject()
        json.key("daemon"); json.string(daemonUp ? "up" : "down")
        json.key("token"); json.optional(token) { $0.string($1) }
        json.endObject()
        return event("hello", id: token, json: json)
    }

    static func daemon(up: Bool) -> ByteBuffer {
        var json = JSONWriter(capacity: 32)
        json.beginObject()
        json.key("state"); json.string(up ? "up" : "down")
        json.endObject()
        return event("daemon", id: nil, json: json)
    }

    static func reset(reason: String) -> ByteBuffer {
        var json = JSONWriter(capacity: 128)
        json.beginObject()
        json.key("reason"); json.string(reason)
        json.endObject()
        return event("reset", id: nil, json: json)
    }

    static func collections(_ collections: [AssetCollection]) -> ByteBuffer {
        var json = JSONWriter()
        json.beginObject()
        json.key("collections"); writeCollections(collections, to: &json)
        json.endObject()
        return event("collections", id: nil, json: json)
    }

    /// The change of a view: its index when `withIndex`, and the sections named by `keys` with their tiles.
    static func sections(of view: GalleryView, named key: String, keys: [String], withIndex: Bool, tiles: TileStore)
        -> ByteBuffer
    {
        var json = JSONWriter()
        json.beginObject()
        json.key("view"); json.string(key)
        json.key("token"); json.string(view.token)
        json.key("count"); json.int(view.ids.count)
        if withIndex {
            json.key("index"); writeIndex(of: view, to: &json)
        }
        json.key("sections")
        writeSections(of: view, keys: keys, tiles: tiles, limit: largestSentSection, to: &json)
        json.endObject()
        return event("sections", id: view.token, json: json)
    }

    /// A heartbeat: a comment line that keeps proxies from closing a quiet stream.
    static let heartbeat = ByteBuffer(string: ": still here\n\n")

    // MARK: JSON shared with the API

    static func writeIndex(of view: GalleryView, to json: inout JSONWriter) {
        json.array(view.sections) { json, section in
            json.beginArray()
            json.string(section.key)
            json.int(section.count)
            json.endArray()
        }
    }

    /// `[{key, count, tiles?}]` for the sections named, in the view's order; a section over `limit` has no tiles.
    static func writeSections(
        of view: GalleryView, keys: [String], tiles: TileStore, limit: Int, to json: inout JSONWriter
    ) {
        json.array(keys.compactMap { view.section(forKey: $0) }) { json, section in
            json.beginObject()
            json.key("key"); json.string(section.key)
            json.key("count"); json.int(section.count)
            if section.count <= limit {
                json.key("tiles")
                json.array(view.ids[section.range].compactMap { tiles[$0] }) { json, tile in tile.write(to: &json) }
            }
            json.endObject()
        }
    }

    static func writeCollections(_ collections: [AssetCollection], to json: inout JSONWriter) {
        let encoded = (try? JSONEncoder().encode(collections)) ?? Data("[]".utf8)
        json.encoded(encoded)
    }

    private static func event(_ name: String, id: String?, json: JSONWriter) -> ByteBuffer {
        event(name, id: id, bytes: json.bytes)
    }

    /// An event of the stream: its id when it has one, its name, and its JSON on one line.
    static func event(_ name: String, id: String?, bytes: [UInt8]) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(bytes.count + 64)
        if let id { buffer.writeString("id: \(id)\n") }
        buffer.writeString("event: \(name)\ndata: ")
        buffer.writeBytes(bytes)
        buffer.writeString("\n\n")
        return buffer
    }
}
