/// Invocation ids: time-ordered (version 7, RFC 9562) UUIDs in lowercase text. Ids made later sort
/// later, so the store's id index grows at one end instead of touching a random page per
/// invocation, which kept group commits' write-ahead log (and fsync) several times larger.
public enum InvocationID {
    /// A new id for an invocation received at `unixMilliseconds`,
    /// e.g. `"019ab0f2-3c41-7d2e-9a7b-5c3d2e1f0a9b"`.
    public static func make(unixMilliseconds: Int64) -> String {
        var generator = SystemRandomNumberGenerator()
        return make(unixMilliseconds: unixMilliseconds, using: &generator)
    }

    /// A version 7 UUID: 48 bits of milliseconds, then random bits from `generator`.
    public static func make<G: RandomNumberGenerator>(unixMilliseconds: Int64, using generator: inout G) -> String {
        let milliseconds = UInt64(clamping: max(0, unixMilliseconds)) & 0xFFFF_FFFF_FFFF
        let high = milliseconds << 16 | 0x7000 | (generator.next() & 0x0FFF)  // version 7, rand_a
        let low = generator.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000  // RFC 9562 variant, rand_b
        var bytes = [UInt8](repeating: UInt8(ascii: "-"), count: 36)
        var position = 0
        for word in [high, low] {
            for nibble in 0..<16 {
                if position == 8 || position == 13 || position == 18 || position == 23 { position += 1 }
                bytes[position] = hexDigits[Int((word >> UInt64(60 - 4 * nibble)) & 0xF)]
                position += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
