#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The source checkout a program runs from, when it was built there (`CHECKOUT/.build/…/photolib`): where a person
/// starts the daemon with `scripts/run-daemon`, not with the systemd units or a `photolibd` on the PATH.
package enum SourceCheckout {
    /// The checkout whose `.build` folder holds the running executable, if it has `scripts/run-daemon`.
    package static func ofRunningProgram() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return containing(executable: String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self),
                          hasScript: FileSystem.exists)
    }

    /// The checkout above the last `.build` folder of `executable`'s path, when `hasScript` finds its run-daemon.
    package static func containing(executable: String, hasScript: (String) -> Bool) -> String? {
        let components = executable.split(separator: "/")
        guard let build = components.lastIndex(of: ".build") else { return nil }
        let checkout = "/" + components[..<build].joined(separator: "/")
        return hasScript(Path.join(checkout, "scripts/run-daemon")) ? checkout : nil
    }
}
