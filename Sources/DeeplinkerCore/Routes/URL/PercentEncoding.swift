/// Percent-encoding helpers working on UTF-8 bytes (URLComponents is too lenient to validate with).
enum PercentEncoding {
    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Bytes a URL component may not hold raw but that we accept by encoding them, like a browser:
    /// every non-ASCII byte (raw non-ASCII is its UTF-8 percent-encoding) and space `"` `<` `>` `^` `` ` `` `{` `|` `}`.
    static func needsEncoding(_ b: UInt8) -> Bool {
        b >= 0x80 || b == 0x20 || b == 0x22 || b == 0x3C || b == 0x3E || b == 0x5E || b == 0x60 || b == 0x7B
            || b == 0x7C || b == 0x7D
    }

    /// Encodes bytes per `needsEncoding`; fails on `\` or a malformed `%` escape.
    static func normalize(_ bytes: ArraySlice<UInt8>) throws(URLProblem) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == 0x25 {
                guard i + 2 < bytes.endIndex, hexValue(bytes[i + 1]) != nil, hexValue(bytes[i + 2]) != nil
                else { throw URLProblem("malformed percent-encoding") }
                out.append(b)
            } else if b == 0x5C {
                throw URLProblem("backslash is not allowed")
            } else if needsEncoding(b) {
                out.append(0x25)
                out.append(hexDigits[Int(b >> 4)])
                out.append(hexDigits[Int(b & 0x0F)])
            } else {
                out.append(b)
            }
            i += 1
        }
        return out
    }

    /// Decodes `%XX` escapes of already-normalised bytes (`+` stays `+`).
    static func decode(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == 0x25, i + 2 < bytes.endIndex, let hi = hexValue(bytes[i + 1]), let lo = hexValue(bytes[i + 2]) {
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(b)
                i += 1
            }
        }
        return out
    }
}
