/// The version of photolibd and its tools, as `--version` prints it and `GetInfo` reports it.
public enum PhotolibVersion {
    public static let current = "0.1.0"
}
