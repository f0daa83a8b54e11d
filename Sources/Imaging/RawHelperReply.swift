/// One answer of `photolibd-raw serve`, a line of JSON.
public struct RawHelperReply: Codable, Sendable {
    /// The status of a file that holds no preview, asked for its preview.
    public static let noPreview: Int32 = 3

    /// 0 when done; else the exit status the command would have ended with.
    public var status: Int32
    /// What the command would have written to standard output.
    public var output: String?
    /// Why the command failed.
    public var error: String?

    public init(status: Int32, output: String? = nil, error: String? = nil) {
        self.status = status
        self.output = output
        self.error = error
    }
}
