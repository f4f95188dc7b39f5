/// Size limits of SPEC §4; anything over them is refused with `TooLarge`.
public enum Limits {
    public static let urlBytes = 8 * 1024
    public static let payloadBytes = 64 * 1024
    public static let payloadDepth = 32
    public static let parametersPerRoute = 64
    public static let queryItems = 64
    public static let stringArgumentBytes = 64 * 1024
}
