import Foundation
import Testing
import TestSupport

/// The scripts a person runs in a checkout (scripts/, Benchmarks/*.sh): the environment they give SwiftPM.
struct CheckoutScriptTests {
    /// The checkout this test was built from.
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let environmentFile = "scripts/lib/environment.bash"

    /// Every script that runs `swift` (itself or through scripts/lib/build-products.bash), with the line that does first.
    static func scriptsRunningSwift() throws -> [(path: String, firstSwiftLine: Int)] {
        let folders = ["scripts", "Benchmarks"]
        var found: [(String, Int)] = []
        for folder in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: checkout + "/" + folder).sorted() {
                let path = folder + "/" + name
                guard let text = try? String(contentsOfFile: checkout + "/" + path, encoding: .utf8), text.hasPrefix("#!/usr/bin/env bash") else {
                    continue
                }
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                if let first = lines.firstIndex(where: { $0.range(of: #"^\s*[^#]*\b(swift (build|test|run|package)|build_products)\b"#, options: .regularExpression) != nil }) {
                    found.append((path, first))
                }
            }
        }
        return found
    }

    @Test func everyScriptThatBuildsPreparesTheEnvironmentFirst() throws {
        let scripts = try Self.scriptsRunningSwift()
        #expect(scripts.contains { $0.path == "scripts/run-daemon" } && scripts.contains { $0.path == "Benchmarks/fetch.sh" })
        for (path, firstSwiftLine) in scripts {
            let lines = try String(contentsOfFile: Self.checkout + "/" + path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            let sourcing = lines.firstIndex { $0.hasPrefix("source \(Self.environmentFile)") }
            #expect(sourcing.map { $0 < firstSwiftLine } == true, "\(path) runs swift without sourcing \(Self.environmentFile) first")
        }
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
