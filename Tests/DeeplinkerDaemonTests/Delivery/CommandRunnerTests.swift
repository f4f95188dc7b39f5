@testable import DeeplinkerDaemon
import Testing

/// `exec` delivery placeholders (SPEC §3): substituted once, never inside substituted values.
struct CommandRunnerTests {
    let values = [
        "{target}": "search", "{invocation-id}": "0193-abc", "{source}": "url",
        "{parameters-json}": #"{"q":"{target} {source}"}"#,
    ]

    @Test func everyPlaceholderIsReplaced() {
        #expect(CommandRunner.substitute("--open={target}/{invocation-id}?from={source}", values) == "--open=search/0193-abc?from=url")
        #expect(CommandRunner.substitute("plain", values) == "plain")
        #expect(CommandRunner.substitute("{unknown} {", values) == "{unknown} {")
    }

    @Test func valuesAreNotSubstitutedAgain() {
        #expect(CommandRunner.substitute("{target}:{parameters-json}", values) == #"search:{"q":"{target} {source}"}"#)
        // Each value names the other placeholder: replacing one after the other, in either order,
        // would rewrite the first value.
        let crossed = ["{target}": "a{source}b", "{source}": "c{target}d"]
        #expect(CommandRunner.substitute("{target}|{source}", crossed) == "a{source}b|c{target}d")
    }
}
