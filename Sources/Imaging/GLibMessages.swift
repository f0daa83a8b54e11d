import CVips
import Synchronization

/// Routes the messages libvips and GLib print (warnings about damaged files, criticals) to a handler of the
/// program's own, so that they reach its log with their level instead of going straight to standard error.
public enum GLibMessages {
    public enum Level: Sendable {
        case error, critical, warning, message, info, debug
    }

    /// Receives each message: its level, its domain ("VIPS", "GLib", ...) and its text.
    public typealias Handler = @Sendable (_ level: Level, _ domain: String, _ message: String) -> Void

    /// The handler in a class of its own: a closure kept in the lock itself came back from each read wrapped in
    /// one more reabstraction thunk, so that every message cost more than the one before.
    private final class Route: Sendable {
        let handler: Handler
        init(_ handler: @escaping Handler) { self.handler = handler }
    }

    private static let route = Mutex<Route?>(nil)

    /// Sends every later GLib message to `handler`. GLib takes one writer per process: call this once, early.
    public static func route(to handler: @escaping Handler) {
        let first = route.withLock { current in
            defer { current = Route(handler) }
            return current == nil
        }
        if first { g_log_set_writer_func(write, nil, nil) }
    }

    private static let write: GLogWriterFunc = { flags, fields, count, _ in
        var domain = "GLib", message = ""
        for index in 0..<Int(count) {
            let field = fields![index]
            guard let key = field.key, let value = field.value else { continue }
            let text = field.length < 0
                ? String(cString: value.assumingMemoryBound(to: CChar.self))
                : String(decoding: UnsafeRawBufferPointer(start: value, count: Int(field.length)), as: UTF8.self)
            switch String(cString: key) {
            case "MESSAGE": message = text
            case "GLIB_DOMAIN": domain = text
            default: break
            }
        }
        GLibMessages.route.withLock { $0 }?.handler(level(of: flags), domain, message)
        return G_LOG_WRITER_HANDLED
    }

    private static func level(of flags: GLogLevelFlags) -> Level {
        let bits = flags.rawValue
        if bits & G_LOG_LEVEL_ERROR.rawValue != 0 { return .error }
        if bits & G_LOG_LEVEL_CRITICAL.rawValue != 0 { return .critical }
        if bits & G_LOG_LEVEL_WARNING.rawValue != 0 { return .warning }
        if bits & G_LOG_LEVEL_MESSAGE.rawValue != 0 { return .message }
        if bits & G_LOG_LEVEL_INFO.rawValue != 0 { return .info }
        return .debug
    }
}
