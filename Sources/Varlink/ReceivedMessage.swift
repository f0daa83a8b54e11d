import CompactJSON
import Foundation
import NIOCore

// How the server takes a received message: a call's header read in one pass, or explained field by field by
// `JSONDecoder` when it is not a well-formed call.

/// The fields of a call message other than its parameters, and whether parameters are present.
///
/// Decoding checks each field's type, so a type error names the offending field.
struct CallHeader: Decodable {
    let method: String
    /// The message has a `parameters` object (not null).
    let hasParameters: Bool
    /// Where that object lies in the message, when the header was read in one pass.
    let parametersLocation: Range<Int>?
    let more: Bool
    let oneway: Bool
    let upgrade: Bool

    /// Reads a well-formed call in one pass; nil for anything else, which `init(from:)` then explains.
    ///
    /// - Throws: `TooDeep` for a field that nests deeper than `JSONReader.maximumDepth`, naming the field.
    init?(reading message: UnsafeRawBufferPointer) throws(TooDeep) {
        var method: String?, parameters: Range<Int>?, more = false, oneway = false, upgrade = false
        var field = ""
        do {
            try JSONReader.read(message) { json throws(JSONReadError) in
                try json.readObject { key, json throws(JSONReadError) in
                    field = key.description
                    switch key {
                    // A field of the wrong type is skipped over before failing, so that nesting too deep is told apart.
                    case "method": method = try json.attempt { json throws(JSONReadError) in try json.readString() }.outcome.get()
                    case "parameters":
                        let (outcome, bytes) = try json.attempt { json throws(JSONReadError) in
                            try json.readOptional { json throws(JSONReadError) in try json.readObject { _, json throws(JSONReadError) in try json.skipValue() } }
                        }
                        guard try outcome.get() != nil else { parameters = nil; return }
                        let start = bytes.baseAddress! - message.baseAddress!
                        parameters = start..<start + bytes.count
                    case "more": more = try Self.readCheckedFlag(&json)
                    case "oneway": oneway = try Self.readCheckedFlag(&json)
                    case "upgrade": upgrade = try Self.readCheckedFlag(&json)
                    default: try json.skipValue()
                    }
                }
            }
        } catch {
            if error.isTooDeep, !field.isEmpty { throw TooDeep(field: field) }
            return nil
        }
        guard let method else { return nil }
        (self.method, hasParameters, parametersLocation) = (method, parameters != nil, parameters)
        (self.more, self.oneway, self.upgrade) = (more, oneway, upgrade)
    }

    /// A flag member; one of the wrong type is skipped over before failing, as the other fields are.
    private static func readCheckedFlag(_ json: inout JSONReader) throws(JSONReadError) -> Bool {
        try json.attempt { json throws(JSONReadError) in try json.readFlag() }.outcome.get()
    }

    /// A call whose `field` nests arrays and objects too deep to read.
    struct TooDeep: Error {
        let field: String
    }

    private enum CodingKeys: String, CodingKey {
        case method, parameters, more, oneway, upgrade
    }

    /// Any key of a JSON object.
    private struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes the header with `JSONDecoder`, whose errors name the field at fault.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decode(String.self, forKey: .method)
        hasParameters = try container.contains(.parameters) && !container.decodeNil(forKey: .parameters)
        if hasParameters {
            _ = try container.nestedContainer(keyedBy: MemberKey.self, forKey: .parameters)
        }
        parametersLocation = nil
        more = try container.decodeIfPresent(Bool.self, forKey: .more) ?? false
        oneway = try container.decodeIfPresent(Bool.self, forKey: .oneway) ?? false
        upgrade = try container.decodeIfPresent(Bool.self, forKey: .upgrade) ?? false
    }
}

/// What the server makes of one received message.
enum ReceivedMessage: Sendable {
    /// A well-formed call.
    case call(VarlinkCall)
    /// A JSON object that is not a valid call: answer it with this error and go on.
    case invalidCall(VarlinkError)
    /// Not a JSON object: the stream cannot be trusted any more.
    case unreadable(reason: String)

    init(frame: ByteBuffer) {
        let message = Data(frame.readableBytesView)
        do {
            let header = try message.withUnsafeBytes(CallHeader.init(reading:))
                ?? JSONDecoder().decode(CallHeader.self, from: message)
            self = header.upgrade && header.more
                ? .invalidCall(.invalidParameter("upgrade"))
                : .call(VarlinkCall(header: header, message: message))
        } catch let error as CallHeader.TooDeep {
            self = .invalidCall(.invalidParameter(error.field))
        } catch DecodingError.keyNotFound(let key, let context) where context.codingPath.isEmpty {
            self = .invalidCall(.invalidParameter(key.stringValue))
        } catch let error as DecodingError {
            guard let field = error.context.codingPath.first else {
                self = .unreadable(reason: error.context.debugDescription)
                return
            }
            self = .invalidCall(.invalidParameter(field.stringValue))
        } catch {
            self = .unreadable(reason: "\(error)")
        }
    }
}
