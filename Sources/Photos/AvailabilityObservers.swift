import Foundation
import PhotoLibrary
import Synchronization

/// PhotoKit's availability observers: told once per outage that the daemon went away for longer than the reconnect
/// window. Held weakly, as change observers are.
extension ChangeStream {
    func register(availabilityObserver observer: any PHPhotoLibraryAvailabilityObserver) {
        let observer = Unchecked(observer)
        state.withLock { state in
            state.availabilityObservers.removeAll { $0.value == nil }
            state.availabilityObservers.append(WeakAvailabilityObserver(value: observer.value))
        }
        openOrRetry()
    }

    func unregister(availabilityObserver observer: any PHPhotoLibraryAvailabilityObserver) {
        let observer = Unchecked(observer)
        state.withLock { $0.availabilityObservers.removeAll { $0.value == nil || $0.value === observer.value } }
    }

    /// Why the library is unavailable; nil while the daemon answers (or has been away less than the window).
    var unavailabilityReason: PHPhotosError? { state.withLock { $0.unavailability } }

    /// Tells each availability observer, once per outage, that the library is unavailable.
    func reportUnavailable() {
        let observers: [any PHPhotoLibraryAvailabilityObserver]? = state.withLock { state in
            guard state.unavailability == nil else { return nil }
            state.unavailability = PHPhotosError(
                .libraryVolumeOffline,
                reason: "photolibd stopped and did not answer again "
                    + "within \(Self.reconnectWindow.components.seconds) s; the library comes back when it does")
            return state.availabilityObservers.compactMap(\.value)
        }
        guard let observers else { return }
        let notified = Unchecked(observers)
        delivery.async {
            for observer in notified.value { observer.photoLibraryDidBecomeUnavailable(PHPhotoLibrary.shared()) }
        }
    }
}

/// An availability observer, held weakly.
struct WeakAvailabilityObserver {
    weak var value: (any PHPhotoLibraryAvailabilityObserver)?
}
