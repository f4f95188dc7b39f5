/// The value type of a target parameter; every value is checked and canonicalised by it (SPEC §5).
public enum ParameterType: String, Sendable, Hashable, CaseIterable {
    case string
    case int
    case bool
    case uuid

    /// The canonical text of `value`, or nil when `value` is not of this type.
    /// `int`: 64-bit decimal, optional sign, canonical without `+` or leading zeros;
    /// `bool`: `true`/`false`/`1`/`0` → `true`/`false`; `uuid`: 8-4-4-4-12 hex digits → lowercase.
    public func canonicalize(_ value: String) -> String? {
        switch self {
        case .string:
            return value
        case .int:
            var digits = Substring(value)
            var negative = false
            if let first = digits.first, first == "+" || first == "-" {
                negative = first == "-"
                digits = digits.dropFirst()
            }
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            guard let magnitude = UInt64(digits) else { return nil }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
                return magnitude == 0 ? "0" : "-\(magnitude)"
            }
            guard magnitude <= UInt64(Int64.max) else { return nil }
            return String(magnitude)
        case .bool:
            switch value {
            case "true", "1": return "true"
            case "false", "0": return "false"
            default: return nil
            }
        case .uuid:
            let bytes = Array(value.utf8)
            guard bytes.count == 36 else { return nil }
            for (i, b) in bytes.enumerated() {
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    guard b == UInt8(ascii: "-") else { return nil }
                } else {
                    let isHex = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
                    guard isHex else { return nil }
                }
            }
            return value.lowercased()
        }
    }
}
