import Digests
import Foundation
#if canImport(Glibc)
import Glibc
import HexEncoding
#endif

/// The secret a person opens the gallery with: printed once in the address, kept in the runtime directory (mode
/// 0600) so that the same address works after a restart, and exchanged for a session cookie.
public struct AccessToken: Sendable, Hashable {
    public let value: String
    /// The session cookie's value: derived from the token (so sessions outlive a restart with the same token)
    /// without giving the token away; worked out once, as every request is checked against it.
    let sessionValue: String

    public init(value: String) {
        self.value = value
        sessionValue = Digest.hmacSHA256(key: value.utf8, message: "photolib-web session".utf8).lowercaseHex
    }

    /// A new random token: 32 bytes, hex.
    public static func random() -> AccessToken {
        var generator = SystemRandomNumberGenerator()
        return AccessToken(value: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }.lowercaseHex)
    }

    /// The token kept at `path`, or a new one written there (its folder made, both private to the user).
    public static func loadOrCreate(at path: String) throws -> AccessToken {
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if value.count >= 32, value.allSatisfy(\.isHexDigit) { return AccessToken(value: value) }
        }
        let token = random()
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = path + ".new"
        guard FileManager.default.createFile(atPath: temporary, contents: Data((token.value + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        return token
    }

    /// Compares in constant time.
    func matches(_ candidate: Substring) -> Bool {
        constantTimeEquals(Array(candidate.utf8), Array(value.utf8))
    }

    func matchesSession(_ candidate: Substring) -> Bool {
        constantTimeEquals(Array(candidate.utf8), Array(sessionValue.utf8))
    }

    private func constantTimeEquals(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
