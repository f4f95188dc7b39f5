extension Duration {
    /// Parses a route-file duration: `"0"`, or one or more `<digits><unit>` parts with unit
    /// `ms`, `s`, `m`, `h` or `d`, e.g. `"500ms"`, `"2s"`, `"10m"`, `"1h30m"`. At most 365 days. Nil if invalid.
    public init?(configString text: String) {
        if text == "0" {
            self = .zero
            return
        }
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        var totalMS: Int64 = 0
        var i = 0
        while i < bytes.count {
            var number: Int64 = 0
            let start = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                number = number * 10 + Int64(bytes[i] - 0x30)
                guard number <= 1_000_000_000_000 else { return nil }
                i += 1
            }
            guard i > start, i < bytes.count else { return nil }
            let unitMS: Int64
            if bytes[i] == UInt8(ascii: "m"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "s") {
                unitMS = 1
                i += 2
            } else {
                switch bytes[i] {
                case UInt8(ascii: "s"): unitMS = 1000
                case UInt8(ascii: "m"): unitMS = 60_000
                case UInt8(ascii: "h"): unitMS = 3_600_000
                case UInt8(ascii: "d"): unitMS = 86_400_000
                default: return nil
                }
                i += 1
            }
            totalMS += number * unitMS
            guard totalMS <= 365 * 86_400_000 else { return nil }
        }
        self = .milliseconds(totalMS)
    }
}
