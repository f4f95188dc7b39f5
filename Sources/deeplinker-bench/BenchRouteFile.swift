import Foundation

/// The bench copy of the Best Recipes route file: `dedupe-window = "0"` so that no two calls are
/// de-duplicated, and `launch = "none"` so that an invocation for the not-running app measures the
/// engine and the store rather than a failing bus activation per call.
enum BenchRouteFile {
    static let appID = "com.bestrecipes.App"
    static let fileName = appID + ".toml"

    /// Where the route file is: `explicit`, else `Config/apps/…` in the working directory or in a
    /// parent of the executable's directory (the package root above `.build*/release`).
    static func locate(_ explicit: String?) -> String? {
        if let explicit { return explicit }
        let relative = "Config/apps/" + fileName
        var candidates = [FileManager.default.currentDirectoryPath]
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(dir.path)
            dir = dir.deletingLastPathComponent()
        }
        return candidates.map { ($0 as NSString).appendingPathComponent(relative) }
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The route file's text with the two bench settings.
    static func benchText(_ original: String) -> String {
        var lines = original.components(separatedBy: "\n")
        var seen: Set<String> = []
        for (i, line) in lines.enumerated() {
            let key = line.split(separator: "=", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            switch key {
            case "dedupe-window": lines[i] = "dedupe-window = \"0\""
            case "launch": lines[i] = "launch = \"none\""
            default: continue
            }
            seen.insert(key)
        }
        // Top-level keys must come before the first table header.
        let header = lines.firstIndex { $0.hasPrefix("[") } ?? lines.count
        if !seen.contains("launch") { lines.insert("launch = \"none\"", at: header) }
        if !seen.contains("dedupe-window") { lines.insert("dedupe-window = \"0\"", at: header) }
        return lines.joined(separator: "\n")
    }

    /// Writes the bench copy of `source` into `directory` (created).
    static func install(from source: String, into directory: URL) throws {
        let text = try String(contentsOfFile: source, encoding: .utf8)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try benchText(text).write(to: directory.appendingPathComponent(fileName), atomically: true, encoding: .utf8)
    }
}
