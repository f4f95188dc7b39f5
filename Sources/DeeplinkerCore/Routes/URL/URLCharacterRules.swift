/// Character classes of SPEC §4: what a URL may not contain, raw or percent-encoded.
enum URLCharacterRules {
    /// C0 controls, DEL and C1 controls.
    static func isControl(_ v: UInt32) -> Bool { v < 0x20 || v == 0x7F || (v >= 0x80 && v <= 0x9F) }

    /// U+200E, U+200F, U+202A–U+202E, U+2066–U+2069.
    static func isBidiControl(_ v: UInt32) -> Bool {
        v == 0x200E || v == 0x200F || (v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069)
    }

    /// Describes the first forbidden character in decoded UTF-8 bytes, or nil. Works on raw bytes so
    /// it also catches sequences in otherwise invalid UTF-8.
    static func forbiddenCharacter(inDecoded bytes: [UInt8]) -> String? {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x20 || b == 0x7F { return "control character U+\(hex4(UInt32(b)))" }
            if b == 0xC2, i + 1 < bytes.count, bytes[i + 1] >= 0x80, bytes[i + 1] <= 0x9F {
                return "control character U+\(hex4(UInt32(bytes[i + 1])))"
            }
            if b == 0xE2, i + 2 < bytes.count {
                let v = 0x2000 | (UInt32(bytes[i + 1] & 0x3F) << 6) | UInt32(bytes[i + 2] & 0x3F)
                if bytes[i + 1] & 0xC0 == 0x80, bytes[i + 2] & 0xC0 == 0x80, isBidiControl(v) {
                    return "bidirectional control character U+\(hex4(v))"
                }
            }
            i += 1
        }
        return nil
    }

    static func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
