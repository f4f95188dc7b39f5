@testable import DeeplinkerDaemon
import Foundation
import Testing

/// The store's hand-written JSON must read back exactly with `JSONDecoder`.
struct StringMapJSONTests {
    @Test func sortedCompactObject() {
        #expect(StringMapJSON.encode([:]) == "{}")
        #expect(StringMapJSON.encode(["b": "2", "a": "1", "B": "3"]) == #"{"B":"3","a":"1","b":"2"}"#)
        #expect(StringMapJSON.encode(["url": "https://x.org/a?b=c"]) == #"{"url":"https://x.org/a?b=c"}"#)
    }

    @Test(arguments: [
        "", "plain", "quote \" and backslash \\", "line\nbreak\r\ttab", "\u{0}\u{1}\u{1F}\u{7F}",
        "ünïcødé 日本語 🍲", "\u{2028}\u{2029}", "</script>", String(repeating: "é", count: 2_000),
    ])
    func roundTripsThroughJSONDecoder(value: String) throws {
        let map = ["key \"\(value.prefix(3))\"": value, "k": value]
        let text = StringMapJSON.encode(map)
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
        #expect(decoded == map)
    }
}
