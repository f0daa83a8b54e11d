/// Which local users may use the library, by uid.
///
/// The configuration file names users or gives numeric uids; names are resolved to uids when
/// the file is loaded. What unlisted users get is the daemon's decision.
public struct AccessPolicy: Sendable, Hashable {
    /// Users who may read and change the library (`authorized`).
    public var readWriteUsers: [UInt32]
    /// Users who may only read the library (`restricted`).
    public var readOnlyUsers: [UInt32]
    /// Users who may add photos and videos but not read the library (PhotoKit's `.addOnly` access level).
    public var addOnlyUsers: [UInt32]

    /// Creates a policy; every list is empty by default.
    public init(readWriteUsers: [UInt32] = [], readOnlyUsers: [UInt32] = [], addOnlyUsers: [UInt32] = []) {
        self.readWriteUsers = readWriteUsers
        self.readOnlyUsers = readOnlyUsers
        self.addOnlyUsers = addOnlyUsers
    }
}
