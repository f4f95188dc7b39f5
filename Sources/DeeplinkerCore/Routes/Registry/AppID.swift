/// App id rules: the desktop-file id, which is also a D-Bus well-known name (SPEC §1).
public enum AppID {
    /// At least two `.`-separated elements of `[A-Za-z_-][A-Za-z0-9_-]*`, at most 255 bytes.
    public static func isValid(_ id: String) -> Bool {
        guard id.utf8.count <= 255 else { return false }
        let elements = id.split(separator: ".", omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.utf8.first, !(first >= 0x30 && first <= 0x39) else { return false }
            return element.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F || $0 == 0x2D
            }
        }
    }
}
