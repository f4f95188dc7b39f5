/// A screen or action of an app and the typed parameters it accepts; every source maps into one.
public struct TargetSchema: Sendable, Hashable {
    public var name: String
    public var parameters: [String: ParameterSpec]

    public init(name: String, parameters: [String: ParameterSpec] = [:]) {
        self.name = name
        self.parameters = parameters
    }

    /// Target names use ASCII letters, digits, `-` and `.` (valid GApplication action names).
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x2E
        }
    }

    /// Parameter names use ASCII letters, digits, `_`, `-` and `.` (dotted names come from payload paths).
    public static func isValidParameterName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x2E
                || b == 0x5F
        }
    }
}
