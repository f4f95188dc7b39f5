@testable import DeeplinkerDaemon
import Foundation
import Testing

/// The store's hand-written JSON must read back exactly with `JSONDecoder`, and its hand-written
/// reader must read what either wrote (older stores wrote with `JSONEncoder`).
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

    @Test(arguments: [
        "", "plain", "quote \" and backslash \\", "line\nbreak\r\ttab", "\u{0}\u{1}\u{1F}\u{7F}",
        "ünïcødé 日本語 🍲", "\u{2028}\u{2029}", "</script>", "a/b\\/c", String(repeating: "é", count: 2_000),
    ])
    func decodeReadsWhatEitherEncoderWrote(value: String) throws {
        let map = ["key \"\(value.prefix(3))\"": value, "k": value]
        #expect(StringMapJSON.decode(StringMapJSON.encode(map)) == map)
        let encoder = JSONEncoder()
        for formatting in [JSONEncoder.OutputFormatting(), [.prettyPrinted, .sortedKeys]] {
            encoder.outputFormatting = formatting
            let text = String(decoding: try encoder.encode(map), as: UTF8.self)
            #expect(StringMapJSON.decode(text) == map, "\(text)")
        }
    }

    @Test func decodeTakesEveryEscapeAndRefusesWhatIsNotAFlatObjectOfStrings() {
        #expect(StringMapJSON.decode(#" { "a" : "\u00e9\uD83C\uDF72\/\b\f" } "#) == ["a": "é🍲/\u{8}\u{C}"])
        #expect(StringMapJSON.decode("{}") == [:])
        for bad in [
            "", "[]", "{", #"{"a":1}"#, #"{"a":"b",}"#, #"{"a":"b"} x"#, #"{"a" "b"}"#, #"{"a":"\x"}"#,
            #"{"a":"\uD83C"}"#, #"{"a":"\u12"}"#, "{\"a\":\"line\nbreak\"}", #"{"a":{"b":"c"}}"#, #"{"a":null}"#,
        ] {
            #expect(StringMapJSON.decode(bad) == nil, "\(bad)")
        }
    }
}
