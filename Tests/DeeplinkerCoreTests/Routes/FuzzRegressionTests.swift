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

    /// Found by fuzz-route-file (crash-4e48ab37…, minimised to `[{`; crash-a7693615…, `[[[`): toml++ inside TOMLKit aborted the
    /// whole process on an assertion when a table header did not start with a key.
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
        #expect(TOMLSourceLocator.syntaxProblem(in: "a = [ {b = 1}, [1], \"]\" ]\n[t]\nb = [\n# }\n]") == nil)
        #expect(TOMLSourceLocator(text: "a = 1\n[ {").syntaxProblem?.location == TextLocation(line: 2, column: 3))
        #expect(TOMLSourceLocator.syntaxProblem(in: "a = [1,\n  }")?.location == TextLocation(line: 2, column: 3))
    }

    /// Found by fuzz-route-file (crash-3bce67db…): after a byte order mark the scanner misread the
    /// first line and let a bad header through to toml++.
    @Test func byteOrderMarkIsSkippedLikeTOMLPlusPlusDoes() throws {
        let crash: [UInt8] = [0xEF, 0xBB, 0xBF, 0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x13, 0xBB, 0xAF]
        #expect(throws: ConfigError.self) { try RouteFileParser.parse(String(decoding: crash, as: UTF8.self), appID: "com.fuzz.R", file: "r.toml") }
        #expect(TOMLSourceLocator.syntaxProblem(in: "\u{FEFF}[{")?.location == TextLocation(line: 1, column: 2))
        let config = try RouteFileParser.parse("\u{FEFF}name = \"x\"", appID: "com.fuzz.R", file: "r.toml")
        #expect(config.name == "x")
        #expect(TOMLSourceLocator(text: "\u{FEFF}name = 1").keyLocation(TOMLKeyPath([.key("name")])) == TextLocation(line: 1, column: 1))
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
        #expect(TOMLSourceLocator.syntaxProblem(in: "a = [\u{85}")?.location == TextLocation(line: 1, column: 6))
    }

    /// Found by fuzz-route-file (crash-99e77397…, `d=2324-` then DEL and U+FFFD): toml++ aborted on an
    /// assertion inside a malformed date; a bare value with a character no number, boolean or
    /// date-time has is refused first.
    @Test func bareValueWithForeignCharacterIsAConfigError() throws {
        let crash: [UInt8] = [
            0x23, 0x52, 0x65, 0x65, 0x6D, 0x0A, 0x64, 0x3D, 0x32, 0x33, 0x32, 0x34, 0x2D, 0x7F, 0x83, 0x2D,
            0x7F, 0x83, 0x20, 0x32, 0x09, 0xFF, 0xFF,
        ]
        #expect(throws: ConfigError.self) { try RouteFileParser.parse(String(decoding: crash, as: UTF8.self), appID: "com.fuzz.R", file: "r.toml") }
        for text in ["d=2324-\u{7F}", "a = 12é", "a = tru\u{0}e", "a = [1, 2\u{7F}]", "a = { b = 1$ }"] {
            #expect(TOMLSourceLocator.syntaxProblem(in: text)?.message == "unexpected character in a value", "\(text)")
        }
        // crash-8830a2b8…: a date, a space and a lone digit.
        for text in ["o=9276-04-09 2\n", "o = 9276-04-09 2", "a = [1979-05-27 7]", "a = 1 2", "a = 1979-05-27\t07:32:00", "a = 1979-05-27 07:32:00 x"] {
            #expect(TOMLSourceLocator.syntaxProblem(in: text)?.message == "a value may hold a space only between a date and a time", "\(text)")
        }
        // Every kind of bare value TOML has still passes the check.
        let valid = """
            a = 1979-05-27T07:32:00Z\r
            b = 1979-05-27 07:32:00.999999-07:00\t# comment
            c = [ +inf, -nan, 6.626e-34, 0xDEAD_BEEF, 0o755, 0b1101, true, false, 1_000 ]
            d = { e = 07:32:00, f = -0.0 }
            """
        #expect(TOMLSourceLocator.syntaxProblem(in: valid) == nil)
    }

    /// TOMLKit cuts keys at an escaped NUL, so looking them up again failed: this trapped on a force unwrap.
    @Test(arguments: [
        "[targets]\n\"a\\u0000b\" = {}", "[targets]\nt = { \"p\\u0000\" = \"int\" }",
        "[targets]\nt = { p = \"int?\" }\n[[routes]]\npath = \"/\"\ntarget = \"t\"\nparams = { \"p\\u0000x\" = 1 }",
        "[targets]\nt = { p = \"int?\" }\n[[notifications.rules]]\nwhen = \"a\"\ntarget = \"t\"\nparams-from = { \"p\\u0000\" = \"a\" }",
    ])
    func escapedNULInKeysIsAConfigError(text: String) {
        #expect(throws: ConfigError.self) { try RouteFileParser.parse(text, appID: "com.fuzz.R", file: "r.toml") }
    }

    /// The locator follows nesting only as deep as toml++ allows, so it cannot overflow the stack.
    @Test func locatorStopsAtDeepNesting() {
        _ = TOMLSourceLocator(text: "a = " + String(repeating: "[", count: 100_000))
        _ = TOMLSourceLocator(text: "a = " + String(repeating: "{b = ", count: 100_000))
        let ok = TOMLSourceLocator(text: "a = [[[1]]]\nb = 2")
        #expect(ok.keyLocation(TOMLKeyPath([.key("b")])) == TextLocation(line: 2, column: 1))
    }

    @Test func deeplyNestedJSONIsTooLarge() {
        let text = String(repeating: "{\"a\":", count: 100_000)
        let error = RoutingFixtures.error { () throws(DeeplinkerError) in try JSONParser.parse(bytes: Array(text.utf8), maxBytes: 1 << 20) }
        #expect(error?.name == "TooLarge")
    }

    @Test(arguments: ["[[a]]\n[a]", "[a]\n[[a]]", "a.b = 1\n[a]", "\"\"\"\n\"\"\"\"\"", "a = '''\n'''''", "[\"\\u00", "a = {b.c.d = 1, b.e = [{f = 1}]}"])
    func oddTOMLNeverTraps(text: String) {
        _ = TOMLSourceLocator(text: text)
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
