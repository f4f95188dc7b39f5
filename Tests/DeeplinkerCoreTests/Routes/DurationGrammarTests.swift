import Testing
@testable import DeeplinkerCore

/// The route-file duration grammar: "0" or <digits><ms|s|m|h|d> parts.
struct DurationGrammarTests {
    @Test(arguments: [
        ("0", Duration.zero), ("500ms", .milliseconds(500)), ("2s", .seconds(2)), ("10m", .seconds(600)),
        ("1h", .seconds(3600)), ("1d", .seconds(86400)), ("1h30m", .seconds(5400)), ("0s", .zero), ("365d", .seconds(365 * 86400)),
    ])
    func valid(text: String, expected: Duration) {
        #expect(Duration(configString: text) == expected)
    }

    @Test(arguments: ["", "5", "1.5s", "10 m", "10M", "-1s", "s", "1w", "366d", "1h 30m", "99999999999999999999s", "ms"])
    func invalid(text: String) {
        #expect(Duration(configString: text) == nil)
    }
}
