import PhotoModel
import Synchronization

/// Fingerprints made with originals' first renditions (an import's, a warm-up's), held until the background analysis
/// stores them; each one wakes it, so that a new copy joins its group within moments of its rendition.
package final class FreshFingerprints: Sendable {
    private let made = Mutex<[(assetId: String, fingerprint: ImageFingerprint?)]>([])
    package let wakeUp = AnalysisWakeUp()

    package init() {}

    func add(_ fingerprint: ImageFingerprint?, ofAsset assetId: String) {
        made.withLock { $0.append((assetId, fingerprint)) }
        wakeUp.signal()
    }

    /// Takes every fingerprint held.
    func takeAll() -> [(assetId: String, fingerprint: ImageFingerprint?)] {
        made.withLock { made in
            defer { made = [] }
            return made
        }
    }
}

/// Wakes the background analysis before its pause is over, when there is work for it.
package final class AnalysisWakeUp: Sendable {
    private struct State {
        /// A signal no wait has taken yet.
        var isPending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    package init() {}

    /// Ends the wait under way, or the next one.
    func signal() {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.isPending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }?.resume()
    }

    /// Returns at the first signal (one that came meanwhile counts), after `pause`, or when the task is cancelled.
    func wait(upTo pause: Duration) async {
        let timer = Task { [weak self] in
            // A timer cancelled once the wait ended signals nothing.
            guard (try? await Task.sleep(for: pause)) != nil else { return }
            self?.signal()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let isSignalled = state.withLock { state in
                    guard !state.isPending else {
                        state.isPending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if isSignalled { continuation.resume() }
            }
        } onCancel: {
            signal()
        }
        timer.cancel()
    }
}
