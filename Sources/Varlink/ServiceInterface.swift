/// `org.varlink.service`, which every varlink service implements: what the service is and which
/// interfaces it serves, with their descriptions.
struct ServiceInterface: VarlinkInterface {
    static let name = "org.varlink.service"

    let info: VarlinkServiceInfo
    /// The interfaces served besides this one, by name.
    let interfaces: [String: any VarlinkInterface]

    var name: String { Self.name }

    /// The official IDL of `org.varlink.service`.
    let description = """
        # The Varlink Service Interface is provided by every varlink service. It
        # describes the service and the interfaces it implements.
        interface org.varlink.service

        # Get a list of all the interfaces a service provides and information
        # about the implementation.
        method GetInfo() -> (
          vendor: string,
          product: string,
          version: string,
          url: string,
          interfaces: []string
        )

        # Get the description of an interface that is implemented by this service.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The requested interface was not found.
        error InterfaceNotFound (interface: string)

        # The requested method was not found
        error MethodNotFound (method: string)

        # The interface defines the requested method, but the service does not
        # implement it.
        error MethodNotImplemented (method: string)

        # One of the passed parameters is invalid.
        error InvalidParameter (parameter: string)

        # Client is denied access
        error PermissionDenied ()

        # Method is expected to be called with 'more' set to true, but wasn't
        error ExpectedMore ()

        """

    private struct Info: Encodable {
        let vendor: String
        let product: String
        let version: String
        let url: String
        let interfaces: [String]
    }

    private struct DescriptionRequest: Decodable {
        let interface: String
    }

    private struct Description: Encodable {
        let description: String
    }

    func handle(_ call: VarlinkCall, context: VarlinkCallContext, replies: VarlinkReplyWriter) async throws {
        switch call.methodName {
        case "GetInfo":
            try await replies.send(
                Info(
                    vendor: info.vendor,
                    product: info.product,
                    version: info.version,
                    url: info.url,
                    interfaces: [Self.name] + interfaces.keys.sorted()
                )
            )
        case "GetInterfaceDescription":
            let requested = try call.decodeParameters(DescriptionRequest.self).interface
            guard let interface = requested == Self.name ? self : interfaces[requested] else {
                throw VarlinkError.interfaceNotFound(requested)
            }
            try await replies.send(Description(description: interface.description))
        default:
            throw VarlinkError.methodNotFound(call.method)
        }
    }
}
