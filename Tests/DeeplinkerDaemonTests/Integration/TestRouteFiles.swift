import Foundation

/// Route files for the integration tests: copies of the shipped ones with some top-level keys
/// overridden, and small inline ones.
enum TestRouteFiles {
    static let recipes = "com.bestrecipes.App"
    static let apartments = "com.example.Apartments"

    /// The shipped route file of `app` with `overrides` (key → TOML value) replacing or adding
    /// top-level keys. Tests default to `launch = "none"` unless they test launching.
    static func shipped(_ app: String, _ overrides: [String: String] = [:]) throws -> String {
        let url = DaemonFixture.repositoryRoot.appendingPathComponent("Config/apps/\(app).toml")
        var text = try String(contentsOf: url, encoding: .utf8)
        var all = ["launch": "\"none\""]
        all.merge(overrides) { $1 }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            !all.keys.contains { line.hasPrefix("\($0) ") || line.hasPrefix("\($0)=") }
        }
        text = all.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: "\n") + "\n"
            + lines.joined(separator: "\n")
        return text
    }

    /// A TOML array of strings.
    static func array(_ values: [String]) -> String {
        "[" + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ", ") + "]"
    }

    /// A minimal app: scheme `scheme`, targets `page` (`id` string) and `home`.
    static func minimal(scheme: String, _ keys: [String: String] = [:]) -> String {
        var all = ["launch": "\"none\""]
        all.merge(keys) { $1 }
        return all.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: "\n") + """

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
}
