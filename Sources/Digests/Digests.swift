import COpenSSL

/// SHA-256 of bytes fed in pieces, by OpenSSL's libcrypto: content hashes of files read in chunks.
public struct SHA256Hasher: ~Copyable {
    private let context: OpaquePointer

    public init() {
        context = Digest.newContext(Digest.sha256Algorithm)
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
        Digest.finish(context, length: 32)
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

    /// SHA-256 of `bytes`: 32 bytes.
    public static func sha256(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// MD5 of `bytes`, 16 bytes: for names other programs derive with it (freedesktop.org thumbnails), never for
    /// security.
    public static func md5(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        digest(bytes, md5Algorithm, length: 16)
    }

    /// HMAC-SHA-256 of `message` under `key`: 32 bytes.
    public static func hmacSHA256(key: some Sequence<UInt8>, message: some Sequence<UInt8>) -> [UInt8] {
        let key = Array(key), message = Array(message)
        var code = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let made = code.withUnsafeMutableBufferPointer { code in
            HMAC(sha256Algorithm, key, Int32(key.count), message, message.count, code.baseAddress, &length)
        }
        precondition(made != nil && length == 32, "HMAC-SHA-256 failed")
        return code
    }

    private static func digest(_ bytes: some Sequence<UInt8>, _ algorithm: OpaquePointer, length: Int) -> [UInt8] {
        let context = newContext(algorithm)
        defer { EVP_MD_CTX_free(context) }
        let bytes = Array(bytes)
        precondition(EVP_DigestUpdate(context, bytes, bytes.count) == 1, "digest update failed")
        return finish(context, length: length)
    }

    private static func fetch(_ name: String) -> OpaquePointer {
        guard let algorithm = EVP_MD_fetch(nil, name, nil) else { fatalError("libcrypto has no \(name)") }
        return algorithm
    }

    fileprivate static func newContext(_ algorithm: OpaquePointer) -> OpaquePointer {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, algorithm, nil) == 1 else {
            fatalError("cannot start a digest")
        }
        return context
    }

    fileprivate static func finish(_ context: OpaquePointer, length: Int) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: length)
        var written: UInt32 = 0
        let finished = digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &written) }
        precondition(finished == 1 && written == length, "digest failed")
        return digest
    }
}
