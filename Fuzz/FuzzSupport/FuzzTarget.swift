import CLibFuzzer
import Foundation

/// How a fuzz target feeds one input to the code it tests; it returns 0, as libFuzzer asks.
public typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// The main program of a fuzz target.
public enum FuzzTarget {
    /// Built for fuzzing (`-D FUZZING -sanitize=fuzzer`), runs libFuzzer over `callback` with the command line's
    /// options and corpus folders. Built plainly, feeds `callback` each file named on the command line and every
    /// file in each folder named (the seed corpus and the inputs of past findings), so that a plain build checks
    /// them all again; a crash ends the process in both.
    public static func run(_ callback: FuzzCallback) throws {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
        #else
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            for file in try inputs(at: path) {
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                _ = data.withUnsafeBytes { callback($0.bindMemory(to: UInt8.self).baseAddress, $0.count) }
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

extension UnsafeRawBufferPointer {
    /// The bytes libFuzzer hands a callback.
    public init(fuzzInput data: UnsafePointer<UInt8>?, count: Int) {
        self.init(start: count == 0 ? nil : data, count: count)
    }
}
