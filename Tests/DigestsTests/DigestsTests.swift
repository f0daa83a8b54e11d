import Digests
import Foundation
import HexEncoding
import TestSupport
import Testing

struct DigestsTests {
    @Test func knownVectorsComeOut() {
        // FIPS 180-2's "abc", RFC 1321's empty message, RFC 4231's test case 2.
        #expect(Digest.sha256("abc".utf8).lowercaseHex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Digest.md5("".utf8).lowercaseHex == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(Digest.hmacSHA256(key: "Jefe".utf8, message: "what do ya want for nothing?".utf8).lowercaseHex
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func bytesFedInPiecesHashAsCoreutilsHashesTheWholeFile() throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<3_000_001).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let directory = try TemporaryDirectory()
        let path = directory.file("random")
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        var hasher = SHA256Hasher()
        var offset = 0
        bytes.withUnsafeBytes { all in
            while offset < all.count {
                let length = min(Int.random(in: 0...70_000, using: &generator), all.count - offset)
                hasher.update(UnsafeRawBufferPointer(rebasing: all[offset..<offset + length]))
                offset += length
            }
        }
        let pieces = hasher.finalize().lowercaseHex
        let whole = bytes.withUnsafeBytes { Digest.sha256($0) }.lowercaseHex
        #expect(pieces == whole)
        #expect(pieces == (try coreutils("sha256sum", path)))
        #expect(Digest.md5(bytes).lowercaseHex == (try coreutils("md5sum", path)))
    }

    /// The digest `tool` prints for the file at `path`.
    private func coreutils(_ tool: String, _ path: String) throws -> String {
        String(try runTool("/usr/bin/\(tool)", [path]).output.prefix { $0 != " " })
    }
}
