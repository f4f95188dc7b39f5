import Testing
@testable import DeeplinkerCore

/// Inputs found by (or written for) the fuzz targets in Sources/Fuzz; each must fail cleanly.
struct FuzzRegressionTests {
    @Test func deeplyNestedTOMLIsAConfigError() {
        let text = "a = " + String(repeating: "[", count: 5_000)
        #expect(throws: ConfigError.self) { try RouteFileParser.parse(text, appID: "com.fuzz.R", file: "r.toml") }
        let tables = "a = " + String(repeating: "{b = ", count: 5_000)
        #expect(throws: ConfigError.self) { try RouteFileParser.parse(tables, appID: "com.fuzz.R", file: "r.toml") }
    }

    /// Found by fuzz-route-file (crash-4e48ab37…, minimised to `[{`; crash-a7693615…, `[[[`): toml++ inside TOMLKit (the
    /// TOML parser before ours) aborted the whole process on an assertion when a table header did not start with a key.
    @Test(arguments: ["[{", "[ {", "[[{", "[}", "[,", "[=", "[#", "[\t{", "[\na]", "[\r\n", "[[ {", "[ (", "[!", "a = 1\n\n  [ = ]", "[", "[[[", "[ [a]]", "[]", "[[]]",
        // crash-3bce67db…: a byte-order mark, then `[` and bytes that are not UTF-8 (decoded as U+FFFD).
        "\u{FEFF}[\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{13}\u{FFFD}\u{FFFD}", "\u{FEFF}[{"])
    func malformedTableHeaderIsAConfigError(text: String) throws {
        let error = try #require(throws: ConfigError.self) { try RouteFileParser.parse(text, appID: "com.fuzz.R", file: "r.toml") }
        #expect(error.message.contains("syntax error"))
    }

    @Test func headerCheckLeavesValidArraysAlone() throws {
        let config = try RouteFileParser.parse("launch = [ \"a\" ]\n[ targets ]\nt = {}\n[[ routes ]]\npath = \"/\"\ntarget = \"t\"", appID: "com.fuzz.R", file: "r.toml")
        #expect(config.routes.count == 1)
        #expect(TOMLTestRendering.parse("a = [ {b = 1}, [1], \"]\" ]\n[t]\nb = [\n# }\n]") == #"{a: [{b: 1}, [1], "]"], t: {b: []}}"#)
        #expect(TOMLTestRendering.parse("a = 1\n[ {") == "error 2:3: expected a key in the [table] header, found '{'")
        #expect(TOMLTestRendering.parse("a = [1,\n  }") == "error 2:3: expected a value, found '}'")
    }

    /// Found by fuzz-route-file (crash-3bce67db…): after a byte order mark the scanner in front of
    /// toml++ misread the first line. The mark is skipped and not counted as a column.
    @Test func byteOrderMarkIsSkippedLikeTOMLPlusPlusDoes() throws {
        let crash: [UInt8] = [0xEF, 0xBB, 0xBF, 0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x13, 0xBB, 0xAF]
        #expect(throws: ConfigError.self) { try RouteFileParser.parse(String(decoding: crash, as: UTF8.self), appID: "com.fuzz.R", file: "r.toml") }
        #expect(TOMLTestRendering.parse("\u{FEFF}[{").hasPrefix("error 1:2: "))
        let config = try RouteFileParser.parse("\u{FEFF}name = \"x\"", appID: "com.fuzz.R", file: "r.toml")
        #expect(config.name == "x")
        #expect(try TOMLDocument(parsing: "\u{FEFF}name = 1").keyLocation(TOMLKeyPath([.key("name")])) == TextLocation(line: 1, column: 1))
    }

    /// Found by fuzz-route-file (crash-2aeb8588…, `path = [[[[[[[[[[[[[[}`): toml++ aborted on an
    /// assertion when an array value started with `}`.
    @Test(arguments: ["a = [}", "a = [ }", "a = [1,}", "a = [#c\n}", "a = [[}", "path = [[[[[[[[[[[[[[}", "a = { b = [ } }"])
    func arrayValueStartingWithBraceIsAConfigError(text: String) throws {
        let error = try #require(throws: ConfigError.self) { try RouteFileParser.parse(text, appID: "com.fuzz.R", file: "r.toml") }
        #expect(error.message.contains("syntax error"))
    }

    /// Found by fuzz-route-file (crash-2ed89e42…, `4=[` then U+0085): toml++ aborted on an assertion
    /// when a value started with whitespace TOML does not allow (it counts it as a value terminator).
    @Test(arguments: [
        "4=[\u{85}", "a = [\u{85}", "a=[\u{A0}", "a=[\u{2028}", "a=[\u{3000}", "a=[1,\u{85}", "a={b=[\u{85}]}",
        "a=\u{85}", "a = [\u{0B}", "a = [\u{0C}]", "a = [\u{FEFF}]", "a = [\u{2060}]", "a = [\u{200B}]",
    ])
    func valueStartingWithForeignWhitespaceIsAConfigError(text: String) throws {
        let error = try #require(throws: ConfigError.self) { try RouteFileParser.parse(text, appID: "com.fuzz.R", file: "r.toml") }
        #expect(error.message.contains("syntax error") || error.message.contains("whitespace character"))
    }

    @Test func foreignWhitespaceInsideStringsAndCommentsIsFine() throws {
        let config = try RouteFileParser.parse("name = \"a\u{85}b\u{A0}\" # \u{2028}\n", appID: "com.fuzz.R", file: "r.toml")
        #expect(config.name == "a\u{85}b\u{A0}")
        #expect(TOMLTestRendering.parse("a = [\u{85}") == "error 1:6: expected a value, found the whitespace character U+0085 (TOML allows only spaces and tabs)")
    }

    /// Found by fuzz-route-file (crash-99e77397…, `d=2324-` then DEL and U+FFFD): toml++ aborted on an
    /// assertion inside a malformed date. Each of these is an error at the character that breaks it.
    @Test func bareValueWithForeignCharacterIsAConfigError() throws {
        let crash: [UInt8] = [
            0x23, 0x52, 0x65, 0x65, 0x6D, 0x0A, 0x64, 0x3D, 0x32, 0x33, 0x32, 0x34, 0x2D, 0x7F, 0x83, 0x2D,
            0x7F, 0x83, 0x20, 0x32, 0x09, 0xFF, 0xFF,
        ]
        let error = try #require(throws: ConfigError.self) { try RouteFileParser.parse(String(decoding: crash, as: UTF8.self), appID: "com.fuzz.R", file: "r.toml") }
        #expect(error.description == "r.toml:2:3: TOML syntax error: invalid date-time 2324-: a date is written YYYY-MM-DD")
        let cases: [(String, String)] = [
            ("d=2324-\u{7F}", "error 1:3: invalid date-time 2324-: a date is written YYYY-MM-DD"),
            ("a = 12é", "error 1:7: expected a newline or a comment after the value, found 'é'"),
            ("a = tru\u{0}e", "error 1:5: invalid value tru (strings need quotes)"),
            ("a = [1, 2\u{7F}]", "error 1:10: expected ',' or ']' in the array, found the control character U+007F"),
            ("a = { b = 1$ }", "error 1:12: expected ',' or '}' in the inline table, found '$'"),
            // crash-8830a2b8…: a date, a space and a lone digit.
            ("o=9276-04-09 2\n", "error 1:14: expected a newline or a comment after the value, found '2'"),
            ("o = 9276-04-09 2", "error 1:16: expected a newline or a comment after the value, found '2'"),
            ("a = [1979-05-27 7]", "error 1:17: expected ',' or ']' in the array, found '7'"),
            ("a = 1 2", "error 1:7: expected a newline or a comment after the value, found '2'"),
            ("a = 1979-05-27\t07:32:00", "error 1:16: expected a newline or a comment after the value, found '0'"),
            ("a = 1979-05-27 07:32:00 x", "error 1:25: expected a newline or a comment after the value, found 'x'"),
        ]
        for (text, expected) in cases {
            #expect(TOMLTestRendering.parse(text) == expected, "\(text.debugDescription)")
        }
        // Every kind of bare value TOML has still parses.
        let valid = """
            a = 1979-05-27T07:32:00Z\r
            b = 1979-05-27 07:32:00.999999-07:00\t# comment
            c = [ +inf, -nan, 6.626e-34, 0xDEAD_BEEF, 0o755, 0b1101, true, false, 1_000 ]
            d = { e = 07:32:00, f = -0.0 }
            """
        #expect(TOMLTestRendering.parse(valid) == "{a: odt(1979-05-27T07:32:00Z), b: odt(1979-05-27 07:32:00.999999-07:00), c: [inf, -nan, 6.626e-34, 3735928559, 493, 13, true, false, 1000], d: {e: lt(07:32:00), f: -0.0}}")
    }

    /// TOMLKit cut keys at an escaped NUL, so looking them up again failed: this trapped on a force
    /// unwrap. Our parser keeps such keys whole; the route-file parser refuses U+0000 in keys and
    /// strings (D-Bus strings, argv and desktop entries cannot carry it), at the key.
    @Test(arguments: [
        "[targets]\n\"a\\u0000b\" = {}", "[targets]\nt = { \"p\\u0000\" = \"int\" }",
        "[targets]\nt = { p = \"int?\" }\n[[routes]]\npath = \"/\"\ntarget = \"t\"\nparams = { \"p\\u0000x\" = 1 }",
        "[targets]\nt = { p = \"int?\" }\n[[notifications.rules]]\nwhen = \"a\"\ntarget = \"t\"\nparams-from = { \"p\\u0000\" = \"a\" }",
    ])
    func escapedNULInKeysIsAConfigError(text: String) throws {
        let error = try #require(throws: ConfigError.self) { try RouteFileParser.parse(text, appID: "com.fuzz.R", file: "r.toml") }
        #expect(error.message.hasSuffix("keys must not contain a NUL character"), "\(error)")
        #expect(!error.message.utf8.contains(0))
    }

    @Test func escapedNULInStringsIsAConfigError() throws {
        let error = try #require(throws: ConfigError.self) { try RouteFileParser.parse("name = \"a\\u0000b\"", appID: "com.fuzz.R", file: "r.toml") }
        #expect(error.description == "r.toml:1:8: name: strings must not contain a NUL character")
        let param = try #require(throws: ConfigError.self) {
            try RouteFileParser.parse("[targets]\nt = { p = \"string\" }\n[[shortcuts]]\ntype = \"a\"\ntitle = \"A\"\ntarget = \"t\"\nparams = { p = \"\\u0000\" }", appID: "com.fuzz.R", file: "r.toml")
        }
        #expect(param.description == "r.toml:7:16: shortcuts[0].params.p: strings must not contain a NUL character")
        // Quoted in a message, it is escaped.
        let quoted = try #require(throws: ConfigError.self) { try RouteFileParser.parse("max-attempts = \"1\\u0000\\n\"", appID: "com.fuzz.R", file: "r.toml") }
        #expect(quoted.description == #"r.toml:1:16: max-attempts: expected an integer, found "1\u0000\n""#)
    }

    /// Nesting is limited while parsing, so it cannot overflow the stack; shallow nesting is fine.
    @Test func parserStopsAtDeepNesting() throws {
        #expect(throws: TOMLSyntaxError.self) { try TOMLDocument(parsing: "a = " + String(repeating: "[", count: 100_000)) }
        #expect(throws: TOMLSyntaxError.self) { try TOMLDocument(parsing: "a = " + String(repeating: "{b = ", count: 100_000)) }
        let ok = try TOMLDocument(parsing: "a = [[[1]]]\nb = 2")
        #expect(ok.keyLocation(TOMLKeyPath([.key("b")])) == TextLocation(line: 2, column: 1))
    }

    @Test func deeplyNestedJSONIsTooLarge() {
        let text = String(repeating: "{\"a\":", count: 100_000)
        let error = RoutingFixtures.error { () throws(DeeplinkerError) in try JSONParser.parse(bytes: Array(text.utf8), maxBytes: 1 << 20) }
        #expect(error?.name == "TooLarge")
    }

    @Test(arguments: ["[[a]]\n[a]", "[a]\n[[a]]", "a.b = 1\n[a]", "\"\"\"\n\"\"\"\"\"", "a = '''\n'''''", "[\"\\u00", "a = {b.c.d = 1, b.e = [{f = 1}]}"])
    func oddTOMLNeverTraps(text: String) {
        _ = try? TOMLDocument(parsing: text)
        _ = try? RouteFileParser.parse(text, appID: "com.fuzz.R", file: "r.toml")
    }

    @Test(arguments: ["x://%", "x://a%", "https://[", "https://[::1", "https://[::1]:x/", "https://%FF/", "https://a%2Eb/", "x://\u{10FFFF}", "https://\u{3002}/", "https://xn--/", "https://a.com:/"])
    func oddURLsFailCleanly(url: String) {
        _ = try? ValidatedURL(url)
    }

    @Test func punycodeOfAllUnicodeHighPlaneLabelDoesNotOverflow() {
        let label = Array(String(repeating: "\u{10FFFF}", count: 200).unicodeScalars)
        _ = Punycode.encode(label)
        #expect(HostNormalizer.normalize(String(repeating: "\u{10FFFF}", count: 200) + ".example") == nil)
    }
}
