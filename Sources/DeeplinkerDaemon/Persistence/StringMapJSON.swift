import DeeplinkerCore

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

    /// The string map in `text`: a JSON object whose values are all strings (any whitespace, any
    /// escapes, as RFC 8259 allows); nil if `text` is anything else. Read with the core's
    /// `JSONParser`, not `JSONDecoder`, which at start-up (one last route) paged in 1.4 MiB of code.
    static func decode(_ text: String) -> [String: String]? {
        guard case .object(let object)? = try? JSONParser.parse(text, maxBytes: .max, maxDepth: 1) else { return nil }
        var map: [String: String] = [:]
        map.reserveCapacity(object.count)
        for (key, value) in object {
            guard case .string(let string) = value else { return nil }
            map[key] = string
        }
        return map
    }
}
