import Foundation

/// Route files for the tests: the shipped examples (`Config/apps`), copies of them with some
/// top-level keys overridden, and small inline ones.
public enum TestRouteFiles {
    public static let recipes = "com.bestrecipes.App"
    public static let apartments = "com.example.Apartments"

    /// `Config/apps`, the shipped example route files.
    public static let shippedDirectory = TestFiles.repository("Config/apps")

    /// The app ids of every shipped route file, sorted.
    public static var shippedAppIDs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: shippedDirectory)) ?? [])
            .filter { $0.hasSuffix(".toml") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The shipped route file of `app` as it is.
    public static func original(_ app: String) throws -> String {
        try TestFiles.read(shippedDirectory + "/\(app).toml")
    }

    /// The shipped route file of `app` with `overrides` (key → TOML value) replacing or adding
    /// top-level keys. Tests default to `launch = "none"` unless they test launching.
    public static func shipped(_ app: String, _ overrides: [String: String] = [:]) throws -> String {
        let keys = defaults.merging(overrides) { $1 }
        let lines = try original(app).split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            !keys.keys.contains { line.hasPrefix("\($0) ") || line.hasPrefix("\($0)=") }
        }
        return header(keys) + "\n" + lines.joined(separator: "\n")
    }

    /// A TOML array of strings.
    public static func array(_ values: [String]) -> String {
        "[" + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ", ") + "]"
    }

    /// A minimal app: scheme `scheme`, targets `page` (`id` string) and `home`.
    public static func minimal(scheme: String, _ keys: [String: String] = [:]) -> String {
        header(defaults.merging(keys) { $1 }) + """

            schemes = ["\(scheme)"]

            [targets]
            home = {}
            page = { id = "string", note = "string?" }

            [[routes]]
            path = "/home"
            target = "home"

            [[routes]]
            path = "/page/:id"
            target = "page"

            """
    }

    private static let defaults = ["launch": "\"none\""]

    /// `key = value` lines, sorted by key.
    private static func header(_ keys: [String: String]) -> String {
        keys.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: "\n")
    }
}
