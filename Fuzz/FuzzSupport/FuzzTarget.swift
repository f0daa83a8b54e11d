import CLibFuzzer
import Foundation

/// The main program of a fuzz target.
public enum FuzzTarget {
    /// The code under test, for libFuzzer's callback, which cannot capture it.
    nonisolated(unsafe) private static var target: (UnsafeRawBufferPointer) -> Void = { _ in }

    /// Built for fuzzing (`-D FUZZING` and coverage instrumentation), runs libFuzzer over `target` with the command
    /// line's options and corpus folders. Built plainly, feeds `target` each file named on the command line and
    /// every file in each folder named (the seed corpus and the inputs of past findings), so that a plain build
    /// checks them all again; a crash ends the process in both.
    public static func run(_ target: @escaping (UnsafeRawBufferPointer) -> Void) throws {
        #if FUZZING
        Self.target = target
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzTarget.target(UnsafeRawBufferPointer(start: size == 0 ? nil : data, count: size))
            return 0
        })
        #else
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            for file in try inputs(at: path) {
                try Data(contentsOf: URL(fileURLWithPath: file)).withUnsafeBytes(target)
                count += 1
            }
        }
        print("replayed \(count) inputs")
        #endif
    }

    private static func inputs(at path: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [path] }
        return try FileManager.default.contentsOfDirectory(atPath: path).sorted().map { path + "/" + $0 }
    }
}
