/// A 64-bit digest of a route file's bytes (FNV-1a), so that `doctor` can tell whether the daemon
/// serves the file as it is on disk now: the daemon records it per file in its `RouteFiles`
/// property and the CLI hashes the file it reads with this same function.
public enum RouteFileDigest {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// FNV-1a over `bytes`.
    public static func of(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash = offsetBasis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= prime
        }
        return hash
    }

    /// The digest of the file at `path` read as the daemon reads it (nil when it cannot be read).
    public static func ofFile(atPath path: String) -> UInt64? {
        guard case .success(let bytes) = TextFile.bytes(atPath: path, limit: RouteDirectory.maxFileBytes) else { return nil }
        return of(bytes)
    }
}
