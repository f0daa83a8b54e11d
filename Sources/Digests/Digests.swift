import COpenSSL

/// SHA-256 of bytes fed in pieces, by OpenSSL's libcrypto: content hashes of files read in chunks.
public struct SHA256Hasher: ~Copyable {
    private let context: OpaquePointer

    public init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, Digest.sha256Algorithm, nil) == 1 else {
            fatalError("cannot start a digest")
        }
        self.context = context
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        precondition(EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1, "SHA-256 update failed")
    }

    /// The digest of every byte fed: 32 bytes.
    public consuming func finalize() -> [UInt8] {
        Digest.written(length: 32) { digest, written in EVP_DigestFinal_ex(context, digest, written) }
    }
}

/// One-shot digests by OpenSSL's libcrypto.
public enum Digest {
    // Fetched once: OpenSSL 3 looks an algorithm up again each time one is named by EVP_sha256() and the like.
    nonisolated(unsafe) fileprivate static let sha256Algorithm: OpaquePointer = fetch("SHA2-256")
    nonisolated(unsafe) private static let md5Algorithm: OpaquePointer = fetch("MD5")

    /// SHA-256 of `bytes`: 32 bytes.
    public static func sha256(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        digest(bytes, sha256Algorithm, length: 32)
    }

    /// MD5 of `bytes`, 16 bytes: for names other programs derive with it (freedesktop.org thumbnails), never for
    /// security.
    public static func md5(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        digest(bytes, md5Algorithm, length: 16)
    }

    /// HMAC-SHA-256 of `message` under `key`: 32 bytes.
    public static func hmacSHA256(key: some Sequence<UInt8>, message: some Sequence<UInt8>) -> [UInt8] {
        let key = Array(key), message = Array(message)
        return written(length: 32) { code, length in
            HMAC(sha256Algorithm, key, Int32(key.count), message, message.count, code, length) == nil ? 0 : 1
        }
    }

    /// The digest of `bytes`, read in place when they are contiguous.
    private static func digest(_ bytes: some Sequence<UInt8>, _ algorithm: OpaquePointer, length: Int) -> [UInt8] {
        func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
            written(length: length) { digest, written in
                EVP_Digest(bytes.baseAddress, bytes.count, digest, written, algorithm, nil)
            }
        }
        return bytes.withContiguousStorageIfAvailable { digest(UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes(digest)
    }

    /// The `length` bytes `write` puts out, checking that it succeeded (1) and wrote all of them.
    fileprivate static func written(length: Int,
                                    _ write: (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>) -> Int32) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: length)
        var count: UInt32 = 0
        let succeeded = output.withUnsafeMutableBufferPointer { write($0.baseAddress, &count) }
        precondition(succeeded == 1 && count == length, "libcrypto could not make a digest")
        return output
    }

    private static func fetch(_ name: String) -> OpaquePointer {
        guard let algorithm = EVP_MD_fetch(nil, name, nil) else { fatalError("libcrypto has no \(name)") }
        return algorithm
    }
}
