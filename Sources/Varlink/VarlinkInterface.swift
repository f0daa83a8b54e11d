import Logging

/// One varlink interface served by the daemon.
public protocol VarlinkInterface: Sendable {
    /// The interface name: `io.photolibd.Library`.
    var name: String { get }
    /// The interface's IDL text, returned by `org.varlink.service.GetInterfaceDescription`.
    var description: String { get }

    /// Handles one call of this interface.
    ///
    /// Sends one reply, or several when `call.more` (all but the last with `continues: true`), through
    /// `replies`; or throws a `VarlinkError`, which the server sends as the error reply (a handler answers
    /// an unknown method with `VarlinkError.methodNotFound(call.method)`). Any other error is logged and
    /// answered with the error `<interface>.InternalError(reason: string)`, which the IDL should declare.
    /// A handler that returns without its final reply gets that same error sent for it.
    ///
    /// Calls on one connection are handled one after another. The task is cancelled when the client
    /// disconnects, when a `more` client closes its side of the connection, and when the server stops.
    func handle(_ call: VarlinkCall, context: VarlinkCallContext, replies: VarlinkReplyWriter) async throws

    /// Called once when the server starts draining: ends the interface's endless `more` calls (subscriptions)
    /// with a final reply or an error, so that their connections can close. Calls that end by themselves need
    /// nothing; the default does nothing.
    func endStreams()

    /// Whether the method (its own name) may be called with `upgrade: true`; the server refuses the others with
    /// `InvalidParameter(upgrade)`. The default accepts none.
    func acceptsUpgrade(_ methodName: String) -> Bool
}

extension VarlinkInterface {
    public func endStreams() {}

    public func acceptsUpgrade(_ methodName: String) -> Bool { false }
}

/// What a handler knows about a call besides its message.
public struct VarlinkCallContext: Sendable {
    /// The calling process; `nil` when the kernel did not tell.
    public let peer: PeerCredentials?
    /// The server's logger, with the connection's and the call's metadata.
    public let logger: Logger
    /// For an upgraded call, the raw bytes the client sends after the reply.
    public let upgradedInput: VarlinkUpgradedInput?

    public init(peer: PeerCredentials?, logger: Logger, upgradedInput: VarlinkUpgradedInput? = nil) {
        self.peer = peer
        self.logger = logger
        self.upgradedInput = upgradedInput
    }
}

/// The service's identity, returned by `org.varlink.service.GetInfo`.
public struct VarlinkServiceInfo: Sendable, Hashable {
    public var vendor: String
    public var product: String
    public var version: String
    public var url: String

    public init(vendor: String, product: String, version: String, url: String) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
    }
}
