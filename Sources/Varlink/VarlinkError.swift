/// A varlink error reply; also thrown by the client when the server answers with an error.
///
/// Handlers throw it to answer a call with an error; `name` is the fully qualified error name
/// declared in the interface's IDL (`io.photolibd.Library.NotFound`).
public struct VarlinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The fully qualified error name.
    public var name: String
    /// The error's parameters, as its IDL declares them.
    public var parameters: [String: JSONValue]

    public init(_ name: String, parameters: [String: JSONValue] = [:]) {
        self.name = name
        self.parameters = parameters
    }

    /// `io.example.NotFound(id: 3)`, for logs and messages.
    public var description: String {
        let arguments = parameters.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        return "\(name)(\(arguments.joined(separator: ", ")))"
    }
}

extension VarlinkError {
    /// No interface of that name is served.
    public static func interfaceNotFound(_ interface: String) -> VarlinkError {
        VarlinkError("org.varlink.service.InterfaceNotFound", parameters: ["interface": .string(interface)])
    }

    /// The interface has no method of that name; `method` is the fully qualified method name.
    public static func methodNotFound(_ method: String) -> VarlinkError {
        VarlinkError("org.varlink.service.MethodNotFound", parameters: ["method": .string(method)])
    }

    /// The interface declares the method but the service does not implement it.
    public static func methodNotImplemented(_ method: String) -> VarlinkError {
        VarlinkError("org.varlink.service.MethodNotImplemented", parameters: ["method": .string(method)])
    }

    /// A parameter is missing or invalid; `parameter` names it with dots for nested values (`query.limit`).
    public static func invalidParameter(_ parameter: String) -> VarlinkError {
        VarlinkError("org.varlink.service.InvalidParameter", parameters: ["parameter": .string(parameter)])
    }

    /// The caller may not make this call.
    public static func permissionDenied() -> VarlinkError {
        VarlinkError("org.varlink.service.PermissionDenied")
    }

    /// The method must be called with `more: true`.
    public static func expectedMore() -> VarlinkError {
        VarlinkError("org.varlink.service.ExpectedMore")
    }
}
