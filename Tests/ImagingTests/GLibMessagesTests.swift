import CVips
import Imaging
import Synchronization
import Testing

/// GLib's messages reach the routed handler with their level and domain, however many there are.
@Suite struct GLibMessagesTests {
    @Test func everyMessageReachesTheHandlerAtTheSameCost() {
        let domain = "photolibd-test-\(UInt64.random(in: 0 ... .max))"
        let received = Mutex<(count: Int, last: (GLibMessages.Level, String)?)>((0, nil))
        GLibMessages.route { level, messageDomain, message in
            guard messageDomain == domain else { return }
            received.withLock { $0 = ($0.count + 1, (level, message)) }
        }
        // Before the handler was boxed, each message wrapped it once more: 100,000 took minutes instead of a blink.
        let messages = 100_000
        for index in 1...messages { Self.log(G_LOG_LEVEL_DEBUG, domain: domain, "message \(index)") }
        Self.log(G_LOG_LEVEL_WARNING, domain: domain, "the last one")
        let (count, last) = received.withLock { $0 }
        #expect(count == messages + 1)
        #expect(last?.0 == .warning && last?.1 == "the last one")
    }

    /// Sends one structured message through GLib, as libvips's g_warning and g_debug do.
    private static func log(_ level: GLogLevelFlags, domain: String, _ message: String) {
        domain.withCString { domainText in
            message.withCString { messageText in
                "GLIB_DOMAIN".withCString { domainKey in
                    "MESSAGE".withCString { messageKey in
                        let fields = [GLogField(key: domainKey, value: domainText, length: -1),
                                      GLogField(key: messageKey, value: messageText, length: -1)]
                        fields.withUnsafeBufferPointer { g_log_structured_array(level, $0.baseAddress, gsize($0.count)) }
                    }
                }
            }
        }
    }
}
