/// One reply of an `observe` stream: the current results first, then one event per committed transaction.
public struct LibraryChangeEvent: Sendable, Hashable, Codable {
    /// The library's change token after this event.
    public var token: String
    /// The token of the event before; nil for the first event, the snapshot.
    public var previousToken: String?
    /// The objects the transaction inserted, changed or removed; empty for the snapshot.
    public var objects: [ObjectChange]
    /// The named results: every one in the snapshot, afterwards only those the transaction changed.
    public var results: [FetchResultChange]
    /// Names the stream in `updateObservation` calls; sent with the snapshot only.
    public var observerId: String?

    /// Whether this is the first event, holding each result's full ids.
    public var isSnapshot: Bool { previousToken == nil }

    enum CodingKeys: String, CodingKey { case token, previousToken, objects, results, observerId }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        token = try container.decode(String.self, forKey: .token)
        previousToken = try container.decodeIfPresent(String.self, forKey: .previousToken)
        objects = try container.decodeIfPresent([ObjectChange].self, forKey: .objects) ?? []
        results = try container.decode([FetchResultChange].self, forKey: .results)
        observerId = try container.decodeIfPresent(String.self, forKey: .observerId)
    }
}
