import CompactJSON
import Foundation
import NIOCore

// The JSON shapes of varlink calls and replies as both sides write them, and of replies as the client reads them
// (the server takes a received call in `ReceivedMessage`).

/// The `parameters` member of a message, decoded as `P`.
struct ParametersMember<P: Decodable>: Decodable {
    let parameters: P
}

extension ByteBuffer {
    /// One framed reply message whose parameters write themselves.
    static func varlinkReply(_ parameters: some JSONWritable, continues: Bool) -> ByteBuffer {
        .varlinkMessage(estimatedByteCount: parameters.estimatedByteCount + 64) { json in
            json.beginReply()
            parameters.write(to: &json)
            json.endReply(continues: continues)
        }
    }
}

extension JSONWriter {
    /// Writes the start of a reply message, up to its parameters, which follow.
    mutating func beginReply() {
        beginObject()
        key("parameters")
    }

    /// Writes the end of a reply message, after its parameters.
    mutating func endReply(continues: Bool) {
        if continues { key("continues"); bool(true) }
        endObject()
    }
}

extension JSONReader {
    /// A `more`, `oneway`, `upgrade` or `continues` member: true, false, or null for false.
    mutating func readFlag() throws(JSONReadError) -> Bool {
        try readOptional { json throws(JSONReadError) in try json.readBool() } ?? false
    }
}

/// A reply as the server sends it.
struct OutgoingReply<Parameters: Encodable>: Encodable {
    let parameters: Parameters
    let continues: Bool?
    let error: String?

    /// One framed reply message; parameters that write themselves skip `JSONEncoder`.
    static func framed(_ parameters: Parameters, continues: Bool) throws -> ByteBuffer {
        if let writable = parameters as? any JSONWritable {
            return .varlinkReply(writable, continues: continues)
        }
        return try OutgoingReply(parameters: parameters, continues: continues ? true : nil, error: nil).framed()
    }

    private func framed() throws -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeVarlinkMessage(json: try JSONEncoder.varlink.encode(self))
        return buffer
    }
}

extension OutgoingReply where Parameters == [String: JSONValue] {
    /// One framed error reply; its parameters are always present, `{}` when empty.
    static func framed(_ error: VarlinkError) throws -> ByteBuffer {
        try OutgoingReply(parameters: error.parameters, continues: nil, error: error.name).framed()
    }
}

/// A call as the client sends it.
struct OutgoingCall<Parameters: Encodable>: Encodable {
    let method: String
    let parameters: Parameters
    let more: Bool?
    let upgrade: Bool?

    /// One framed call message; parameters that write themselves skip `JSONEncoder`.
    static func framed(method: String, parameters: Parameters, more: Bool, upgrade: Bool = false) throws -> ByteBuffer {
        if let writable = parameters as? any JSONWritable {
            return .varlinkMessage { json in
                json.beginObject()
                json.key("method"); json.string(method)
                json.key("parameters"); writable.write(to: &json)
                if more { json.key("more"); json.bool(true) }
                if upgrade { json.key("upgrade"); json.bool(true) }
                json.endObject()
            }
        }
        let call = OutgoingCall(method: method, parameters: parameters, more: more ? true : nil, upgrade: upgrade ? true : nil)
        var buffer = ByteBuffer()
        buffer.writeVarlinkMessage(json: try JSONEncoder.varlink.encode(call))
        return buffer
    }
}

/// A reply as the client reads it: typed parameters, or the error the server answered with.
struct IncomingReply<Parameters: Decodable>: Decodable {
    let outcome: Result<Parameters, VarlinkError>
    let continues: Bool

    private enum CodingKeys: String, CodingKey {
        case parameters, continues, error
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        continues = try container.decodeIfPresent(Bool.self, forKey: .continues) ?? false
        if let name = try container.decodeIfPresent(String.self, forKey: .error) {
            let parameters = try container.decodeIfPresent([String: JSONValue].self, forKey: .parameters)
            outcome = .failure(VarlinkError(name, parameters: parameters ?? [:]))
        } else if let parameters = try container.decodeIfPresent(Parameters.self, forKey: .parameters) {
            outcome = .success(parameters)
        } else {
            outcome = .success(try JSONDecoder().decode(Parameters.self, from: Data.emptyJSONObject))
        }
    }

    init(outcome: Result<Parameters, VarlinkError>, continues: Bool) {
        self.outcome = outcome
        self.continues = continues
    }

    /// Decodes one reply message; parameters that read themselves skip `JSONDecoder`.
    init(frame: ByteBuffer) throws(VarlinkConnectionError) {
        do {
            if let readable = Parameters.self as? any JSONReadable.Type {
                self = try frame.withUnsafeReadableBytes { bytes in try Self.read(bytes, parameters: readable) }
            } else {
                self = try JSONDecoder().decode(Self.self, from: Data(frame.readableBytesView))
            }
        } catch {
            throw .malformedReply("\(error)")
        }
    }

    /// Reads the envelope in one pass; the parameters are read as `Parameters` unless the reply is an error.
    private static func read(_ bytes: UnsafeRawBufferPointer, parameters readable: any JSONReadable.Type) throws -> Self {
        var continues = false, errorName: String?
        var parameters: (outcome: Result<any JSONReadable, JSONReadError>, bytes: UnsafeRawBufferPointer)?
        try JSONReader.read(bytes) { json throws(JSONReadError) in
            try json.readObject { key, json throws(JSONReadError) in
                switch key {
                case "parameters": parameters = try json.attempt { json throws(JSONReadError) in try readable.init(reading: &json) }
                case "continues": continues = try json.readFlag()
                case "error": errorName = try json.readOptional { json throws(JSONReadError) in try json.readString() }
                default: try json.skipValue()
                }
            }
        }
        if let errorName {
            let errorParameters = try parameters.map { try JSONDecoder().decode([String: JSONValue].self, from: Data($0.bytes)) }
            return Self(outcome: .failure(VarlinkError(errorName, parameters: errorParameters ?? [:])), continues: continues)
        }
        let value = try parameters?.outcome.get() ?? Data.emptyJSONObject.withUnsafeBytes { empty in
            try JSONReader.read(empty) { json throws(JSONReadError) in try readable.init(reading: &json) }
        }
        return Self(outcome: .success(value as! Parameters), continues: continues)
    }
}

extension JSONEncoder {
    /// The encoder for outgoing messages: compact, `/` unescaped.
    static var varlink: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }
}

extension Data {
    /// `{}`, the parameters of a message that has none.
    static let emptyJSONObject = Data("{}".utf8)
}

extension DecodingError {
    var context: Context {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            context
        @unknown default:
            Context(codingPath: [], debugDescription: "\(self)")
        }
    }
}
