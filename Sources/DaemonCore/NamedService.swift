import ServiceLifecycle

/// A service that describes itself by its name. ServiceLifecycle's start line (at debug level) describes every
/// service, and a struct's default description prints every stored property: some hold the process environment.
package protocol NamedService: Service, CustomStringConvertible {}

extension NamedService {
    package var description: String { String(describing: Self.self) }
}
