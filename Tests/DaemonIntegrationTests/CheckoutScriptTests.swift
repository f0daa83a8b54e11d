import Foundation
import TestSupport
import Testing

/// The scripts a person runs in a checkout (scripts/, Benchmarks/*.sh): the environment they give SwiftPM.
struct CheckoutScriptTests {
    /// The checkout this test was built from.
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let environmentFile = "scripts/lib/environment.bash"

    /// The benchmarks' shared start, which sources the environment file for every Benchmarks/*.sh that sources it.
    static let benchmarkPreamble = "Benchmarks/lib/preamble.bash"

    /// Every script that runs `swift` (itself or through scripts/lib/build-products.bash or the benchmarks' preamble),
    /// with the line that does first; the preamble counts as one, for it is sourced rather than run.
    static func scriptsRunningSwift() throws -> [(path: String, firstSwiftLine: Int)] {
        let folders = ["scripts", "Benchmarks", "Benchmarks/lib"]
        var found: [(String, Int)] = []
        for folder in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: checkout + "/" + folder).sorted() {
                let path = folder + "/" + name
                guard let text = try? String(contentsOfFile: checkout + "/" + path, encoding: .utf8),
                    text.hasPrefix("#!/usr/bin/env bash") || path == benchmarkPreamble
                else {
                    continue
                }
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                if let first = lines.firstIndex(where: {
                    $0.range(
                        of: #"^\s*[^#]*\b(swift (build|test|run|package)|build_products|build_release)\b"#,
                        options: .regularExpression) != nil
                }) {
                    found.append((path, first))
                }
            }
        }
        return found
    }

    @Test func everyScriptThatBuildsPreparesTheEnvironmentFirst() throws {
        let scripts = try Self.scriptsRunningSwift()
        #expect(
            scripts.contains { $0.path == "scripts/run-daemon" }
                && scripts.contains { $0.path == "Benchmarks/fetch.sh" }
                && scripts.contains { $0.path == Self.benchmarkPreamble })
        for (path, firstSwiftLine) in scripts {
            let lines = try String(contentsOfFile: Self.checkout + "/" + path, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            let sourcing = lines.firstIndex {
                $0.hasPrefix("source \(Self.environmentFile)")
                    || ($0.hasPrefix("source ") && $0.contains(Self.benchmarkPreamble.dropFirst("Benchmarks/".count)))
            }
            #expect(
                sourcing.map { $0 < firstSwiftLine } == true,
                "\(path) runs swift without sourcing \(Self.environmentFile) first")
        }
    }

    /// run-daemon builds its four products in one `swift build`, which plans the build once.
    @Test func runDaemonBuildsEverythingInOneSwiftBuild() throws {
        let products = try String(contentsOfFile: Self.checkout + "/scripts/lib/build-products.bash", encoding: .utf8)
        let calls = products.split(separator: "\n").filter {
            !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") && $0.contains("swift build")
        }
        #expect(calls.count == 1, "\(calls)")
    }

    /// The daemon is socket-activated, and every file says so: the units (never started at boot or login by
    /// themselves), debian/rules (the socket enabled and started, the service neither) and the README.
    @Test func theDaemonIsSocketActivatedInOneVoice() throws {
        for unit in ["systemd/photolibd.service", "systemd/user/photolibd.service"] {
            let text = try String(contentsOfFile: Self.checkout + "/" + unit, encoding: .utf8)
            #expect(!text.contains("\nWantedBy=") && text.contains("\nAlso=photolibd.socket"), "\(unit)")
        }
        for unit in ["systemd/photolibd.socket", "systemd/user/photolibd.socket"] {
            let text = try String(contentsOfFile: Self.checkout + "/" + unit, encoding: .utf8)
            #expect(text.contains("\nWantedBy=sockets.target"), "\(unit)")
        }
        let rules = try String(contentsOfFile: Self.checkout + "/debian/rules", encoding: .utf8)
        #expect(rules.contains("\tdh_installsystemd -pphotolibd photolibd.socket\n"))
        #expect(rules.contains("\tdh_installsystemd -pphotolibd --no-enable --no-start photolibd.service\n"))
    }

    /// A shell command that sources the environment file as the scripts do, then prints the environment.
    static let sourcingThenEnv = "cd '\(checkout)' && source \(environmentFile) && env"

    @Test(arguments: ["XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"])
    func anEmptyXDGVariableIsUnsetForTheBuild(_ variable: String) throws {
        var environment = ProcessInfo.processInfo.environment
        environment[variable] = ""
        let empty = try runTool("/bin/bash", ["-c", Self.sourcingThenEnv], environment: environment)
        #expect(!empty.output.split(separator: "\n").contains { $0.hasPrefix(variable + "=") })
        environment[variable] = "/somewhere"
        let set = try runTool("/bin/bash", ["-c", Self.sourcingThenEnv], environment: environment)
        #expect(set.output.split(separator: "\n").contains("\(variable)=/somewhere"))
    }
}
