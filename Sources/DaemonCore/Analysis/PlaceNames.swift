import LibraryStore
import Logging
import PhotoModel
import ReverseGeocoding
import Synchronization

/// The library's reverse geocoder: the place table read once, on first use (a daemon that never sees a location never
/// reads it). A table that is missing or corrupt leaves places unnamed and says why in `problem`.
package final class PlaceNames: PlaceResolving {
    private enum State {
        case unread
        case read(ReverseGeocoder)
        case unusable(String)
    }

    private let tablePath: String
    private let logger: Logger
    private let state = Mutex(State.unread)

    package init(tablePath: String, logger: Logger) {
        self.tablePath = tablePath
        self.logger = logger
    }

    /// The table `PHOTOLIBD_PLACE_TABLE` names, else the checkout's or the package's.
    package convenience init(environment: [String: String], logger: Logger) {
        self.init(tablePath: ReverseGeocoder.defaultTablePath(environment: environment), logger: logger)
    }

    /// Why places cannot be named, once the table was tried; nil while it works or was not tried yet.
    package var problem: String? {
        state.withLock { state in
            if case .unusable(let reason) = state { return reason }
            return nil
        }
    }

    /// The geocoder, reading the table on the first call; nil when the table cannot be used.
    package func geocoder() -> ReverseGeocoder? {
        state.withLock { state -> ReverseGeocoder? in
            switch state {
            case .read(let geocoder):
                return geocoder
            case .unusable:
                return nil
            case .unread:
                do {
                    let geocoder = try ReverseGeocoder(tableAt: tablePath)
                    state = .read(geocoder)
                    return geocoder
                } catch {
                    logger.error("places stay unnamed", metadata: ["reason": "\(error)"])
                    state = .unusable("\(error)")
                    return nil
                }
            }
        }
    }

    package func lookUp(_ location: Location) -> PlaceLookup {
        guard let geocoder = geocoder() else { return .unavailable }
        guard let place = geocoder.place(latitude: location.latitude, longitude: location.longitude) else {
            return .nowhere
        }
        return .named(place)
    }
}
