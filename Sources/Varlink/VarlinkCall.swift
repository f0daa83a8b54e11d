import CompactJSON
import Foundation

/// One incoming call.
public struct VarlinkCall: Sendable {
    /// The fully qualified method name: `io.photolibd.Library.FetchAssets`.
    public let method: String
    /// The caller accepts several replies (`more: true`).
    public let more: Bool
    /// The caller wants no reply (`oneway: true`); replies sent for it are dropped.
    public let oneway: Bool
    /// After the reply, the connection carries the method's raw bytes (`upgrade: true`); only methods whose
    /// interface accepts it get such calls.
    public let upgrade: Bool
    /// Whether the message has a non-null `parameters` member.
    private let hasParameters: Bool
    /// Where that member's object lies in `message`, when known.
    private let parametersLocation: Range<Int>?
    /// The whole call message, JSON text, from which parameters are decoded on demand.
    private let message: Data

    init(header: CallHeader, message: Data) {
        self.method = header.method
        self.more = header.more
        self.oneway = header.oneway
        self.upgrade = header.upgrade
        self.hasParameters = header.hasParameters
        self.parametersLocation = header.parametersLocation
        self.message = message
    }

    /// The interface name: the method name before its last `.`.
    public var interface: String {
        guard let dot = method.lastIndex(of: ".") else { return "" }
        return String(method[..<dot])
    }

    /// The method's own name: the method name after its last `.`.
    public var methodName: String {
        guard let dot = method.lastIndex(of: ".") else { return method }
        return String(method[method.index(after: dot)...])
    }

    /// Decodes `parameters` (absent or null counts as `{}`) into `P`: in one pass when `P` is `JSONReadable`
    /// and reads them, with a default `JSONDecoder` otherwise.
    ///
    /// A decoding failure becomes `VarlinkError.invalidParameter(path)`, where `path` names the offending
    /// parameter with dots (`query.limit`, `changes.2.op`), or is `parameters` when the whole value has the
    /// wrong shape. A `VarlinkError` thrown by `P`'s own `init(from:)` passes through unchanged.
    public func decodeParameters<P: Decodable>(_ type: P.Type = P.self) throws(VarlinkError) -> P {
        if let readable = P.self as? any JSONReadable.Type, let read = readParameters(as: readable) {
            return read as! P
        }
        do {
            if hasParameters {
                return try JSONDecoder().decode(ParametersMember<P>.self, from: message).parameters
            } else {
                return try JSONDecoder().decode(P.self, from: .emptyJSONObject)
            }
        } catch let error as VarlinkError {
            throw error
        } catch let error as DecodingError {
            var path = error.context.codingPath
            if case .keyNotFound(let key, _) = error {
                path.append(key)
            }
            let parameterPath = hasParameters ? path.dropFirst() : path[...]  // without the `parameters` member
            let names = parameterPath.map { key in key.intValue.map(String.init) ?? key.stringValue }
            throw .invalidParameter(names.isEmpty ? "parameters" : names.joined(separator: "."))
        } catch {
            throw .invalidParameter("parameters")
        }
    }

    /// The parameters read by `readable`; nil when they do not read, and `JSONDecoder` is to say why.
    private func readParameters(as readable: any JSONReadable.Type) -> (any JSONReadable)? {
        message.withUnsafeBytes { message in
            let bytes = parametersLocation.map { UnsafeRawBufferPointer(rebasing: message[$0]) }
            guard hasParameters == (bytes != nil) else { return nil }
            return Data.emptyJSONObject.withUnsafeBytes { empty in
                try? JSONReader.read(bytes ?? empty) { json throws(JSONReadError) in try readable.init(reading: &json) }
            }
        }
    }

    /// The parameters as a JSON value: an object, `{}` when absent.
    public var parameters: JSONValue {
        // The message was checked to be JSON with an object or null `parameters`: this decoding cannot fail.
        (try? decodeParameters(JSONValue.self)) ?? [:]
    }
}
