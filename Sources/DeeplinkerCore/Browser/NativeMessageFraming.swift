/// The browsers' native messaging framing (SPEC §10): each message is a 32-bit length in the
/// machine's own byte order, then that many bytes of UTF-8 JSON. Browsers send at most 64 MiB to a
/// host and accept at most 1 MiB from it.
public enum NativeMessageFraming {
    /// The largest message a browser may send to the host.
    public static let maxIncoming = 64 * 1024 * 1024
    /// The largest message the host may send to the browser.
    public static let maxOutgoing = 1024 * 1024
    /// The length prefix's size in bytes.
    public static let headerSize = 4

    /// The length a 4-byte header announces, read in native byte order.
    public static func length(ofHeader header: some Collection<UInt8>) -> Int {
        precondition(header.count == headerSize, "a native messaging header is 4 bytes")
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { raw in
            for (index, byte) in header.enumerated() { raw[index] = byte }
        }
        return Int(value)
    }

    /// The 4-byte header for a payload of `length` bytes, in native byte order.
    public static func header(length: Int) -> [UInt8] {
        withUnsafeBytes(of: UInt32(length)) { Array($0) }
    }

    /// `payload` with its length prefix; a payload over `limit` (the browser's 1 MiB) is refused
    /// rather than sent, since the browser would drop the connection.
    public static func frame(_ payload: [UInt8], limit: Int = maxOutgoing) throws(NativeMessageError) -> [UInt8] {
        guard payload.count <= limit else { throw .replyTooLarge(size: payload.count, limit: limit) }
        return header(length: payload.count) + payload
    }
}
