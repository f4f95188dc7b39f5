import Testing
@testable import DeeplinkerCore

/// The payload JSON parser: strict syntax, limits, number text kept as written.
struct JSONParserTests {
    func error(_ text: String) -> DeeplinkerError? {
        RoutingFixtures.error { () throws(DeeplinkerError) in try JSONParser.parse(text) }
    }

    @Test func parsesValues() throws {
        let v = try JSONParser.parse(#" {"a": [1, -2.5e3, true, false, null], "s": "x\"\u00e9\ud83d\ude00", "a2": {}} "#)
        #expect(v == .object(["a": .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null]), "s": .string("x\"é😀"), "a2": .object([:])]))
    }

    @Test func firstDuplicateKeyWins() throws {
        #expect(try JSONParser.parse(#"{"a":1,"a":2}"#) == .object(["a": .number("1")]))
    }

    @Test(arguments: ["", "{", "{\"a\"}", "[1,]", "{\"a\":1,}", "01", "1.", "-", "tru", "\"\\x\"", "\"\\ud800\"", "\"a\nb\"", "{} x", "'a'", "NaN"])
    func invalidJSON(text: String) {
        #expect(error(text)?.name == "InvalidPayload", "\(text)")
    }

    @Test func invalidUTF8() {
        let e = RoutingFixtures.error { () throws(DeeplinkerError) in try JSONParser.parse(bytes: [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]) }
        #expect(e == .invalidPayload("not valid UTF-8"))
    }

    @Test func depthLimit() throws {
        let ok = String(repeating: "[", count: 31) + "{}" + String(repeating: "]", count: 31)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
        let deep = String(repeating: "[", count: 32) + "{}" + String(repeating: "]", count: 32)
        #expect(error(deep) == .tooLarge(what: "payload nesting depth", size: 33, limit: 32))
        // Far deeper input fails fast instead of overflowing the stack.
        #expect(error(String(repeating: "[", count: 60_000))?.name == "TooLarge")
    }

    @Test func sizeLimit() {
        let big = "{\"a\":\"" + String(repeating: "x", count: Limits.payloadBytes) + "\"}"
        #expect(error(big)?.name == "TooLarge")
    }

    @Test func flattening() throws {
        let v = try JSONParser.parse(#"{"type":"x","data":{"id":7,"ok":true,"list":[1],"none":null,"deep":{"k":"v"}}}"#)
        #expect(v.flattenedScalars() == [
            QueryItem(name: "data.deep.k", value: "v"), QueryItem(name: "data.id", value: "7"), QueryItem(name: "data.ok", value: "true"),
            QueryItem(name: "type", value: "x"),
        ])
        #expect(v.value(at: "data.deep.k") == .string("v"))
        #expect(v.value(at: "data.missing") == nil)
    }
}
