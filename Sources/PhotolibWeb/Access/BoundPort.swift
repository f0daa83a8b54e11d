import Synchronization

/// The port the server was bound to, known once it runs (a test asks for port 0).
final class BoundPort: Sendable {
    private let value = Mutex<Int?>(nil)

    var port: Int? { value.withLock { $0 } }

    func set(_ port: Int) {
        value.withLock { $0 = port }
    }
}
