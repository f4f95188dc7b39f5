/// Invocation ids: random (version 4) UUIDs in lowercase text. Made here rather than with
/// Foundation's `UUID().uuidString.lowercased()`, which cost a fifth of an `OpenURL`'s core time.
public enum InvocationID {
    /// A new random id, e.g. `"3f2c9a1e-7b4d-4c1a-9e0f-5a6b7c8d9e0f"`.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return make(using: &generator)
    }

    /// A version 4 UUID from `generator`'s bits (tests pass a seeded one).
    public static func make<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let high = generator.next() & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000  // version 4
        let low = generator.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000  // RFC 4122 variant
        var bytes = [UInt8](repeating: 0, count: 36)
        var position = 0
        for word in [high, low] {
            for nibble in 0..<16 {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    bytes[position] = UInt8(ascii: "-")
                    position += 1
                }
                let value = Int((word >> UInt64(60 - 4 * nibble)) & 0xF)
                bytes[position] = hexDigits[value]
                position += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
