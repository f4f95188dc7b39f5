import DeeplinkerTestSupport
import Foundation
import Testing
@testable import DeeplinkerCore

/// Shared helpers for the routing tests: parse inline route files and the shipped examples.
enum RoutingFixtures {
    /// The text of a shipped example in Config/apps/.
    static func exampleText(_ appID: String) throws -> String {
        try TestRouteFiles.original(appID)
    }

    static func example(_ appID: String) throws -> AppConfig {
        try RouteFileParser.parse(exampleText(appID), appID: appID, file: "\(appID).toml")
    }

    static func examples() throws -> AppRegistry {
        AppRegistry([try example("com.bestrecipes.App"), try example("com.example.Apartments")])
    }

    static func parse(_ text: String, appID: String = "com.example.Test") throws -> AppConfig {
        try RouteFileParser.parse(text, appID: appID, file: "test.toml")
    }

    /// The ConfigError parsing `text` throws (fails the test if it parses).
    static func configError(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> ConfigError? {
        do {
            _ = try parse(text)
            Issue.record("expected a ConfigError", sourceLocation: sourceLocation)
            return nil
        } catch let error as ConfigError {
            return error
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    static func registry(_ text: String, appID: String = "com.example.Test") throws -> AppRegistry {
        AppRegistry([try parse(text, appID: appID)])
    }

    /// The DeeplinkerError `body` throws.
    static func error<T>(_ body: () throws(DeeplinkerError) -> T) -> DeeplinkerError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }
}
