import DeeplinkerCore
import Foundation

extension RoutingBenchmark {
    /// The time to parse each shipped example route file (`Config/apps/*.toml`) from text: the
    /// parse the daemon and `deeplinker check` do per file at start and on every reload, and the
    /// TOML part of it alone. Found like the bench route file (working directory or above the
    /// executable); skipped if absent.
    static func runExampleFiles() {
        guard let bestRecipes = BenchRouteFile.locate(nil) else {
            print("example route files: Config/apps not found, skipped")
            return
        }
        let directory = (bestRecipes as NSString).deletingLastPathComponent
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".toml") }.sorted()
        for name in names {
            guard let text = try? String(contentsOfFile: (directory as NSString).appendingPathComponent(name), encoding: .utf8) else { continue }
            let appID = String(name.dropLast(5))
            var parsed = 0
            let ns = measure(iterations: 2_000) { _ in
                if (try? RouteFileParser.parse(text, appID: appID, file: name)) != nil { parsed += 1 }
            }
            var tables = 0
            let tomlNS = measure(iterations: 2_000) { _ in tables &+= (try? TOMLDocument(parsing: text))?.root.count ?? 0 }
            print("parse \(name) (\(text.utf8.count) bytes): \(format(ns / 1000)) µs per parse, of which TOML \(format(tomlNS / 1000)) µs\(parsed == 0 ? " (INVALID)" : "")")
        }
    }
}
