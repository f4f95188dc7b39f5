/// Turns a host as written (ASCII, Unicode or percent-encoded) into lowercase ASCII with IDN labels
/// in punycode, the form `domains` are compared in.
enum HostNormalizer {
    /// The normalised host, or nil if it is not a valid DNS host name (or bracketed IPv6 literal).
    static func normalize(_ raw: String) -> String? {
        guard !raw.isEmpty, raw.utf8.count <= 1024 else { return nil }
        if raw.hasPrefix("[") {
            guard raw.hasSuffix("]"), raw.count > 2,
                  raw.dropFirst().dropLast().utf8.allSatisfy({ PercentEncoding.hexValue($0) != nil || $0 == 0x3A || $0 == 0x2E })
            else { return nil }
            return raw.lowercased()
        }
        var bytes = Array(raw.utf8)
        if bytes.contains(0x25) {
            for (i, b) in bytes.enumerated() where b == 0x25 {
                guard i + 2 < bytes.count, PercentEncoding.hexValue(bytes[i + 1]) != nil,
                      PercentEncoding.hexValue(bytes[i + 2]) != nil else { return nil }
            }
            bytes = PercentEncoding.decode(bytes[...])
        }
        if bytes.allSatisfy({ $0 < 0x80 }) {
            // Plain ASCII host: lowercase it, no Unicode work.
            for i in bytes.indices where bytes[i] >= 0x41 && bytes[i] <= 0x5A { bytes[i] += 0x20 }
            return validate(String(decoding: bytes, as: UTF8.self))
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { return nil }
        // NFC by the standard library's own tables: Foundation's would link ICU's 34 MB of data
        // into every binary that uses this module. IDNA treats the ideographic and fullwidth full
        // stops as dots.
        let normalized = String(decoding: decoded._nfcCodeUnits, as: UTF8.self).lowercased()
        var text = String.UnicodeScalarView()
        for scalar in normalized.unicodeScalars {
            text.append(["\u{3002}", "\u{FF0E}", "\u{FF61}"].contains(scalar) ? "." : scalar)
        }
        return validate(String(text))
    }

    /// Splits into labels, converts Unicode labels to punycode and checks DNS label syntax.
    private static func validate(_ host: String) -> String? {
        var text = host
        if text.hasSuffix(".") { text.removeLast() }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        var out: [String] = []
        for label in labels {
            guard !label.isEmpty else { return nil }
            let ascii: String
            if label.utf8.allSatisfy({ $0 < 0x80 }) {
                ascii = String(label)
            } else {
                for s in label.unicodeScalars where URLCharacterRules.isControl(s.value) || URLCharacterRules.isBidiControl(s.value)
                    || s.properties.isWhitespace || "/?#@:%[]\\".unicodeScalars.contains(s) {
                    return nil
                }
                guard let encoded = Punycode.encode(Array(label.unicodeScalars)) else { return nil }
                ascii = "xn--" + encoded
            }
            guard ascii.utf8.count <= 63, !ascii.hasPrefix("-"), !ascii.hasSuffix("-"),
                  ascii.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F })
            else { return nil }
            out.append(ascii)
        }
        let host = out.joined(separator: ".")
        return host.utf8.count <= 253 ? host : nil
    }
}
