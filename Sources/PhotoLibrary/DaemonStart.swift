import PhotolibLocations

/// How a person starts photolibd, or the gallery photolib-web, where this program runs: `scripts/run-daemon` in the
/// checkout it was built in, otherwise the installed systemd units.
public enum DaemonStart {
    /// A sentence for an error message, e.g. "Start it with `scripts/run-daemon` in /home/me/photolibd."
    /// `socketPath` tells the system daemon's socket from a user's.
    public static func advice(for program: String = "photolibd", socketPath: String? = nil) -> String {
        if program == "photolibd", socketPath?.hasPrefix("/run/photolibd/") == true {
            return "Start it with `sudo systemctl start photolibd.socket`."
        }
        if let checkout = SourceCheckout.ofRunningProgram() {
            let besides = program == "photolibd" ? "" : " (it starts \(program) beside the daemon)"
            return "Start it with `scripts/run-daemon` in \(checkout)\(besides)."
        }
        let unit = program == "photolibd" ? "photolibd.socket" : "\(program).service"
        return "Start it with `systemctl --user start \(unit)`, or run `\(program)` in a terminal."
    }
}
