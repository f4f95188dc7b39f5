/// Compact JSON for the string maps the store keeps (parameters, platform data): an object with
/// sorted keys. Written by hand because `JSONEncoder` was a third of the store's CPU per invocation.
enum StringMapJSON {
    /// `map` as a JSON object with keys in code-point order, escaping only what RFC 8259 requires.
    static func encode(_ map: [String: String]) -> String {
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(map.reduce(2) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 })
        for (index, key) in map.keys.sorted().enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            appendString(map[key]!, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
