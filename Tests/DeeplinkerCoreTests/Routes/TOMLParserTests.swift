import Testing
@testable import DeeplinkerCore

/// The TOML 1.0 parser on its own: each kind of value, the structure rules, and invalid text
/// with the line, column and message of its first problem.
struct TOMLParserTests {
    static func parse(_ text: String) -> String { TOMLTestRendering.parse(text) }

    @Test(arguments: [
        // Basic strings and every escape.
        (#"a = "x \b\t\n\f\r\"\\ \u00E9 \U0001F600 \u0000""#, #"{a: "x \u{08}\t\n\u{0C}\r\"\\ é 😀 \0"}"#),
        (#"a = """#, #"{a: ""}"#),
        ("a = \"tab\there\"", #"{a: "tab\there"}"#),
        ("a = \"a\u{85}b\u{A0}\u{2028}\"", "{a: \"a\u{85}b\u{A0}\u{2028}\"}"),
        // Literal strings: no escapes.
        (#"a = 'C:\Users\n'"#, #"{a: "C:\\Users\\n"}"#),
        ("a = ''", #"{a: ""}"#),
        // Multi-line basic: first newline dropped, line-ending backslash, quotes before the end.
        ("a = \"\"\"\nline 1\nline 2\"\"\"", #"{a: "line 1\nline 2"}"#),
        ("a = \"\"\"\r\nx\r\ny\"\"\"", #"{a: "x\r\ny"}"#),
        ("a = \"\"\"one \\\n    two \\  \t\n\n  three\"\"\"", #"{a: "one two three"}"#),
        ("a = \"\"\"q\"\"\"\"\"", #"{a: "q\"\""}"#),
        ("a = \"\"\"\"q\"\"\"\"", #"{a: "\"q\""}"#),
        ("a = \"\"\"\\u0041\\\"\"\"\"\"", #"{a: "A\"\""}"#),
        ("a = \"\"\"\"\"\"", #"{a: ""}"#),
        // Multi-line literal.
        ("a = '''\nC:\\x\n  y'''", #"{a: "C:\\x\n  y"}"#),
        ("a = '''it''s'''''", #"{a: "it\'\'s\'\'"}"#),
        // Integers.
        ("a = [+99, 42, 0, -17, 1_000, 5_349_221, -0, +0]", "{a: [99, 42, 0, -17, 1000, 5349221, 0, 0]}"),
        ("a = [0xDEADBEEF, 0xdead_beef, 0o755, 0b1101_0110, 0x0, 0o0, 0b0]", "{a: [3735928559, 3735928559, 493, 214, 0, 0, 0]}"),
        ("a = [9223372036854775807, -9223372036854775808, 0x7FFFFFFFFFFFFFFF]", "{a: [9223372036854775807, -9223372036854775808, 9223372036854775807]}"),
        // Floats.
        ("a = [+1.0, 3.1415, -0.01, 5e+22, 1e06, -2E-2, 6.626e-34, 224_617.445_991_228, 0.0, -0.0, 1e1_0]",
         "{a: [1.0, 3.1415, -0.01, 5e+22, 1000000.0, -0.02, 6.626e-34, 224617.445991228, 0.0, -0.0, 10000000000.0]}"),
        ("a = [inf, +inf, -inf, nan, +nan, -nan]", "{a: [inf, inf, -inf, nan, nan, -nan]}"),
        // Booleans.
        ("t = true\nf = false", "{t: true, f: false}"),
        // Date-times.
        ("a = [1979-05-27T07:32:00Z, 1979-05-27T00:32:00-07:00, 1979-05-27T00:32:00.999999+05:30, 1979-05-27 07:32:00z, 1979-05-27t07:32:00Z]",
         "{a: [odt(1979-05-27T07:32:00Z), odt(1979-05-27T00:32:00-07:00), odt(1979-05-27T00:32:00.999999+05:30), odt(1979-05-27 07:32:00z), odt(1979-05-27t07:32:00Z)]}"),
        ("a = [1979-05-27T07:32:00, 1979-05-27 00:32:00.5, 1979-05-27, 07:32:00, 00:32:00.999999, 2000-02-29, 23:59:60]",
         "{a: [ldt(1979-05-27T07:32:00), ldt(1979-05-27 00:32:00.5), ld(1979-05-27), lt(07:32:00), lt(00:32:00.999999), ld(2000-02-29), lt(23:59:60)]}"),
        ("a = 1979-05-27 # a date, then a comment", "{a: ld(1979-05-27)}"),
        // Arrays: mixed kinds, nesting, newlines and comments inside, trailing comma.
        ("a = [ 1, 'b', [2, [3]], { c = 4 }, ]", #"{a: [1, "b", [2, [3]], {c: 4}]}"#),
        ("a = [\n  1, # one\n  # nothing\n  2\n  ,\n]\nb = []\nc = [ ]", "{a: [1, 2], b: [], c: []}"),
        ("a = [\r\n1,\r\n2\r\n]", "{a: [1, 2]}"),
        // Inline tables: dotted keys inside, nested, empty; arrays in them may span lines.
        ("a = { b = 1, c.d = 2, c.e = 3, f = { g = [] } }\nh = {}", "{a: {b: 1, c: {d: 2, e: 3}, f: {g: []}}, h: {}}"),
        ("a = { b = [\n1,\n2] }", "{a: {b: [1, 2]}}"),
        // Keys: bare, quoted, dotted, with whitespace around dots, digits, empty quoted, escaped NUL.
        ("bare_key-1 = 1\n1234 = 2\n\"127.0.0.1\" = 3\n'quoted \"k\"' = 4\n\"\" = 5", #"{bare_key-1: 1, 1234: 2, "127.0.0.1": 3, "quoted \"k\"": 4, "": 5}"#),
        ("a . b .\t\"c.d\" = 1\na.e = 2\n3.14 = 'pi'", #"{a: {b: {"c.d": 1}, e: 2}, 3: {14: "pi"}}"#),
        (#""a\u0000b" = 1"#, #"{"a\u0000b": 1}"#),
        (#""\u00e9" = 1"#, #"{"é": 1}"#),
        // Tables, sub-tables, super-table afterwards, arrays of tables with sub-tables.
        ("[a.b]\nc = 1\n[a]\nd = 2", "{a: {b: {c: 1}, d: 2}}"),
        ("[ a . 'b' ]\n[[ c ]]\n[[c]]\nx = 1\n[c.d]\ny = 2", "{a: {b: {}}, c: [{}, {x: 1, d: {y: 2}}]}"),
        ("[a]\nb.c = 1\n[a.b.d]\ne = 2", "{a: {b: {c: 1, d: {e: 2}}}}"),
        ("[x.y.z]\n[x]\ny.w = 1", "{x: {y: {z: {}, w: 1}}}"),
        // Comments, blank lines, CRLF, a byte-order mark, no newline at the end, whitespace.
        ("\u{FEFF}# c\r\n\r\n  a = 1 # c\r\n\t[t] # c\r\nb = 2", "{a: 1, t: {b: 2}}"),
        ("# only a comment \u{85} é\t", "{}"),
        ("", "{}"),
    ] as [(String, String)])
    func validDocuments(text: String, expected: String) {
        #expect(Self.parse(text) == expected, "\(text.debugDescription)")
    }

    @Test(arguments: [
        // Strings.
        (#"a = "\x""#, "1:6", #"invalid escape \x (basic strings have \b \t \n \f \r \" \\ \uXXXX and \UXXXXXXXX)"#),
        (#"a = "\u12""#, "1:6", #"invalid escape \u12 (basic strings"#),
        (#"a = "\UFFFFFFFF""#, "1:6", #"\UFFFFFFFF is not a Unicode scalar value"#),
        (#"a = "\uD800""#, "1:6", #"\uD800 is not a Unicode scalar value"#),
        (#"a = "\e""#, "1:6", #"invalid escape \e"#),
        ("a = \"x\\ y\"", "1:7", "invalid escape \\ followed by ' '"),
        ("a = \"abc\nb = 1", "1:5", "unterminated string (a single-line string ends on its line; use \"\"\" or ''' for several lines)"),
        ("a = 'abc", "1:5", "unterminated string"),
        ("a = \"\"\"abc\n", "1:5", "unterminated multi-line string"),
        ("a = '''abc''", "1:5", "unterminated multi-line string"),
        ("a = \"a\u{7}b\"", "1:7", "a basic string cannot contain the control character U+0007 (write it as an escape such as \\u0007)"),
        ("a = \"a\u{7F}\"", "1:7", "a basic string cannot contain the control character U+007F"),
        ("a = 'a\u{1B}'", "1:7", "a literal string cannot contain the control character U+001B"),
        ("a = \"\"\"\na\rb\"\"\"", "2:2", "a multi-line basic string cannot contain the control character U+000D"),
        ("a = '''\u{8}'''", "1:8", "a multi-line literal string cannot contain the control character U+0008"),
        ("a = \"\"\"a\"\"\"\"\"\"", "1:14", "expected a newline or a comment after the value, found '\"'"),
        // Comments.
        ("a = 1 # x\u{1}y", "1:10", "a comment cannot contain the control character U+0001"),
        ("# x\ry", "1:4", "a comment cannot contain the control character U+000D"),
        // Integers.
        ("a = 0123", "1:5", "invalid number 0123: leading zeros are not allowed"),
        ("a = -01", "1:5", "invalid number -01: leading zeros are not allowed"),
        ("a = 1__2", "1:5", "invalid number 1__2: an underscore must stand between two digits"),
        ("a = _1", "1:5", "invalid value _1 (strings need quotes)"),
        ("a = 1_", "1:5", "invalid number 1_: an underscore must stand between two digits"),
        ("a = +0x1", "1:5", "invalid number +0x1: only decimal numbers may have a sign"),
        ("a = 0x", "1:5", "invalid number 0x: digits expected"),
        ("a = 0xG", "1:5", "invalid number 0xG: unexpected character 'G'"),
        ("a = 0o8", "1:5", "invalid number 0o8: unexpected character '8'"),
        ("a = 0b102", "1:5", "invalid number 0b102: unexpected character '2'"),
        ("a = 0x_1", "1:5", "an underscore must stand between two digits"),
        ("a = 0X1", "1:5", "invalid number 0X1: unexpected character 'X'"),
        ("a = 9223372036854775808", "1:5", "integer 9223372036854775808 does not fit in 64 bits"),
        ("a = -9223372036854775809", "1:5", "integer -9223372036854775809 does not fit in 64 bits"),
        ("a = 0x8000000000000000", "1:5", "integer 0x8000000000000000 does not fit in 64 bits"),
        ("a = 99999999999999999999999", "1:5", "does not fit in 64 bits"),
        // Floats.
        ("a = .7", "1:5", "invalid number .7: a decimal point must have digits on both sides"),
        ("a = 7.", "1:5", "invalid number 7.: a decimal point must have digits on both sides"),
        ("a = 3.e+20", "1:5", "invalid number 3.e+20: a decimal point must have digits on both sides"),
        ("a = 1e", "1:5", "invalid number 1e: the exponent needs digits"),
        ("a = 1e+", "1:5", "invalid number 1e+: the exponent needs digits"),
        ("a = 1.5_", "1:5", "an underscore must stand between two digits"),
        ("a = 1_.5", "1:5", "an underscore must stand between two digits"),
        ("a = 01.5", "1:5", "invalid number 01.5: leading zeros are not allowed"),
        ("a = 1e400", "1:5", "invalid number 1e400: too large for a 64-bit float"),
        ("a = 1.2.3", "1:5", "invalid number 1.2.3: unexpected character '.'"),
        ("a = Inf", "1:5", "invalid value Inf (strings need quotes)"),
        ("a = -inf_", "1:5", "invalid number -inf_"),
        // Booleans and bare words.
        ("a = True", "1:5", "invalid value True (strings need quotes)"),
        ("a = tru", "1:5", "invalid value tru (strings need quotes)"),
        ("a = hello world", "1:5", "invalid value hello (strings need quotes)"),
        // Date-times.
        ("a = 1979-13-27", "1:5", "invalid date-time 1979-13-27: there is no month 13"),
        ("a = 2023-02-29", "1:5", "invalid date-time 2023-02-29: month 2 of 2023 has no day 29"),
        ("a = 1900-02-29", "1:5", "month 2 of 1900 has no day 29"),
        ("a = 1979-04-31T00:00:00", "1:5", "month 4 of 1979 has no day 31"),
        ("a = 1979-05-00", "1:5", "has no day 0"),
        ("a = 1979-5-27", "1:5", "invalid date-time 1979-5-27: a date is written YYYY-MM-DD"),
        ("a = 1979-05-27T07:32", "1:5", "invalid date-time 1979-05-27T07:32: a time is written HH:MM:SS with optional fractional seconds"),
        ("a = 1979-05-27T24:00:00", "1:5", "hours must be 00–23, minutes 00–59 and seconds 00–60"),
        ("a = 07:60:00", "1:5", "hours must be 00–23"),
        ("a = 1979-05-27T07:32:00.", "1:5", "a decimal point in the seconds must be followed by digits"),
        ("a = 1979-05-27T07:32:00+7:00", "1:5", "the offset is Z or ±HH:MM"),
        ("a = 1979-05-27T07:32:00+24:00", "1:5", "the offset's hours must be 00–23"),
        ("a = 1979-05-27X07:32:00", "1:5", "date and time are joined by T or a space"),
        ("a = 07:32:00Z", "1:5", "invalid date-time 07:32:00Z: a local time has no offset or other text after it"),
        ("a = 1979-05-27  07:32:00", "1:17", "expected a newline or a comment after the value, found '0'"),
        ("a = 1979-05-27 7", "1:16", "expected a newline or a comment after the value, found '7'"),
        // Arrays.
        ("a = [1 2]", "1:8", "expected ',' or ']' in the array, found '2'"),
        ("a = [1,,2]", "1:8", "expected a value, found ','"),
        ("a = [,]", "1:6", "expected a value, found ','"),
        ("a = [1", "1:5", "unclosed array: the file ends before its ']'"),
        ("a = [", "1:5", "unclosed array: the file ends before its ']'"),
        ("a = [[1],\n  [2,\n# ]", "2:3", "unclosed array: the file ends before its ']'"),
        ("a = [}", "1:6", "expected a value, found '}'"),
        // Inline tables.
        ("a = { b = 1, }", "1:12", "an inline table cannot end with a comma"),
        ("a = { b = 1\n}", "1:12", "an inline table must be on one line (use a [table] header for several lines)"),
        ("a = {\nb = 1 }", "1:6", "an inline table must be on one line"),
        ("a = { b = 1, b = 2 }", "1:18", "key a.b is defined twice (first at line 1, column 7)"),
        ("a = { b = {}, b.c = 1 }", "1:21", "a.b is an inline table (at line 1, column 11), which cannot be added to"),
        ("a = { b = 1 c = 2 }", "1:13", "expected ',' or '}' in the inline table, found 'c'"),
        ("a = { , }", "1:7", "expected a key, found ','"),
        ("a = { b = 1 # c\n}", "1:13", "expected ',' or '}' in the inline table, found '#'"),
        ("a = {", "1:5", "unclosed inline table: the file ends before its '}'"),
        ("a = { b = 1", "1:5", "unclosed inline table: the file ends before its '}'"),
        ("a = { b", "1:8", "expected '=' after the key, found the end of the file"),
        ("a = {b=1}\na.c = 1", "2:7", "a is an inline table (at line 1, column 5), which cannot be added to"),
        ("a = {b=1}\n[a]", "2:1", "a is an inline table (at line 1, column 5), which cannot be added to"),
        ("a = {b=1}\n[a.c]", "2:1", "a is an inline table"),
        ("a = [{b=1}]\n[[a]]", "2:1", "a is a static array (at line 1, column 5); [[a]] cannot append to it"),
        ("a = []\n[a.b]", "2:1", "a is an array (at line 1, column 5), not a table"),
        // Keys and key/value pairs.
        ("= 1", "1:1", "expected a key, a [table] header or a comment, found '='"),
        ("a", "1:2", "expected '=' after the key, found the end of the file"),
        ("a = ", "1:5", "expected a value, found the end of the file"),
        ("a =\nb = 1", "1:4", "expected a value, found a newline"),
        ("a = 1 b = 2", "1:7", "expected a newline or a comment after the value, found 'b'"),
        ("a. = 1", "1:4", "expected a key after '.', found '='"),
        ("a.b.c", "1:6", "expected '=' after the key, found the end of the file"),
        ("a b = 1", "1:3", "expected '=' after the key, found 'b'"),
        ("\"a\nb\" = 1", "1:1", "unterminated string"),
        ("\"\"\"a\"\"\" = 1", "1:3", "expected '=' after the key, found '\"'"),
        ("é = 1", "1:1", "expected a key, a [table] header or a comment, found 'é'"),
        ("a = 1\na = 2", "2:5", "key a is defined twice (first at line 1, column 1)"),
        ("a = 1\n'a' = 2", "2:7", "key a is defined twice"),
        ("a = 1\n\"\\u0061\" = 2", "2:12", "key a is defined twice"),
        ("a.b = 1\na.b = 2", "2:7", "key a.b is defined twice (first at line 1, column 3)"),
        ("a.b = 1\na = 2", "2:5", "key a is defined twice (first at line 1, column 1)"),
        ("a = 1\na.b = 2", "2:7", "a is an integer (at line 1, column 5), not a table"),
        ("a = \"x\"\n[a]", "2:1", "a is a string (at line 1, column 5), not a table"),
        ("a = 1\t\u{85}", "1:7", "expected a newline or a comment after the value, found the whitespace character U+0085 (TOML allows only spaces and tabs)"),
        ("a = \u{A0}1", "1:5", "expected a value, found the whitespace character U+00A0"),
        ("a = 1\rb = 2", "1:6", "expected a newline or a comment after the value, found a carriage return (U+000D) without a newline"),
        ("a = \u{1}", "1:5", "expected a value, found the control character U+0001"),
        // Tables.
        ("[a]\n[a]", "2:1", "table [a] is defined twice (first at line 1, column 1)"),
        ("[a]\nb = 1\n[a.b]", "3:1", "b is an integer"),
        ("[a.b]\n[a]\n[a]", "3:1", "table [a] is defined twice (first at line 2, column 1)"),
        ("[a]\nb.c = 1\n[a.b]", "3:1", "table a.b is already defined by dotted keys (at line 2, column 1); a [a.b] header cannot define it again"),
        ("a.b = 1\n[a]", "2:1", "table a is already defined by dotted keys (at line 1, column 1)"),
        ("[a.b]\n[a]\nb.c = 1", "3:7", "table a.b is defined at line 1, column 1; dotted keys here cannot add to it"),
        ("[a.b.c]\n[a]\nb.c.d = 1", "3:9", "table a.b.c is defined at line 1, column 1"),
        ("[a]\nb.c = 1\n[x]\n[a.b.d]\n[a]", "5:1", "table [a] is defined twice"),
        ("[[a]]\n[a]", "2:1", "a is an array of tables (at line 1, column 1); add an element with [[a]]"),
        ("[a]\n[[a]]", "2:1", "a is a table (at line 1, column 1), not an array of tables"),
        ("[[a]]\nb = 1\n[a.b]", "3:1", "a.b is an integer (at line 2, column 5), not a table"),
        ("[[a.b]]\n[a]\nb.c = 1", "3:7", "a.b is an array of tables (at line 1, column 1), not a table"),
        ("[]", "1:2", "expected a key in the [table] header, found ']'"),
        ("[[]]", "1:3", "expected a key in the [[array of tables]] header, found ']'"),
        ("[a", "1:3", "expected ']' to close the [table] header, found the end of the file"),
        ("[a\nb = 1", "1:3", "expected ']' to close the [table] header, found a newline"),
        ("[[a]", "1:5", "expected ']]' to close the [[array of tables]] header, found the end of the file"),
        ("[[a] ]", "1:5", "expected ']]' to close the [[array of tables]] header, found ' '"),
        ("[ [a]]", "1:3", "expected a key in the [table] header, found '['"),
        ("[a] b = 1", "1:5", "expected a newline or a comment after the table header, found 'b'"),
        ("[a.]", "1:4", "expected a key after '.', found ']'"),
        ("[{", "1:2", "expected a key in the [table] header, found '{'"),
        ("[[[", "1:3", "expected a key in the [[array of tables]] header, found '['"),
    ] as [(String, String, String)])
    func invalidDocuments(text: String, location: String, message: String) {
        let result = Self.parse(text)
        #expect(result.hasPrefix("error \(location): "), "\(text.debugDescription) → \(result)")
        #expect(result.contains(message), "\(text.debugDescription) → \(result)")
    }

    @Test func nestingIsLimited() throws {
        let ok = String(repeating: "[", count: TOMLParser.maxDepth) + String(repeating: "]", count: TOMLParser.maxDepth)
        #expect(!Self.parse("a = " + ok).hasPrefix("error"))
        let deep = "a = " + String(repeating: "[", count: 100_000)
        #expect(Self.parse(deep) == "error 1:69: tables and arrays nest deeper than 64 levels")
        #expect(Self.parse("a = " + String(repeating: "{b = ", count: 100_000)).hasSuffix("tables and arrays nest deeper than 64 levels"))
        let dotted = (0..<100).map { "k\($0)" }.joined(separator: ".") + " = 1"
        #expect(Self.parse(dotted).hasSuffix("tables and arrays nest deeper than 64 levels"))
        let header = "[" + (0..<100).map { "k\($0)" }.joined(separator: ".") + "]"
        #expect(Self.parse(header) == "error 1:1: tables and arrays nest deeper than 64 levels")
    }

    @Test func largeIntegersAndFloatsKeepTheirValues() throws {
        let document = try TOMLDocument(parsing: "a = -9223372036854775808\nb = 0b111\nc = 1e-300\nd = -0.0")
        #expect(document.root["a"]?.integer == Int64.min)
        #expect(document.root["b"]?.integer == 7)
        #expect(document.root["c"]?.float == 1e-300)
        #expect(document.root["d"]?.float?.sign == .minus)
    }

    @Test func keysKeepFileOrderAndLookUpByName() throws {
        let document = try TOMLDocument(parsing: "zeta = 1\nalpha = 2\n[m]\n[b]")
        #expect(document.root.keys == ["zeta", "alpha", "m", "b"])
        #expect(document.root["alpha"]?.integer == 2)
        #expect(document.root["nothing"] == nil)
        #expect(document.root.count == 4)
    }

    /// Tables of more than a few keys are indexed by key (`TOMLTable.indexedFrom`); lookups and
    /// the duplicate check work the same on both sides of that size.
    @Test(arguments: [3, TOMLTable.indexedFrom, TOMLTable.indexedFrom + 1, 40])
    func tablesOfAnySizeLookUpAndCatchDuplicates(count: Int) throws {
        let text = (0..<count).map { "k\($0) = \($0)" }.joined(separator: "\n")
        let document = try TOMLDocument(parsing: text)
        #expect(document.root.count == count)
        #expect((0..<count).allSatisfy { document.root["k\($0)"]?.integer == Int64($0) })
        #expect(document.root["k\(count)"] == nil)
        let last = count - 1
        #expect(Self.parse(text + "\nk\(last) = 1") == "error \(count + 1):\("k\(last) = ".count + 1): key k\(last) is defined twice (first at line \(count), column 1)")
        #expect(Self.parse(text + "\nk0.x = 1").hasPrefix("error \(count + 1):8: k0 is an integer"))
        let inline = "t = { " + (0..<count).map { "k\($0) = \($0)" }.joined(separator: ", ") + " }"
        #expect(try TOMLDocument(parsing: inline).root["t"]?.table?["k\(last)"]?.integer == Int64(last))
        let headers = (0..<count).map { "[t.k\($0)]" }.joined(separator: "\n")
        #expect(Self.parse(headers + "\n[t.k\(last)]") == "error \(count + 1):1: table [t.k\(last)] is defined twice (first at line \(count), column 1)")
    }

    @Test func errorDescriptionHasLineAndColumn() {
        let error = #expect(throws: TOMLSyntaxError.self) { try TOMLDocument(parsing: "a = 1\nb = @") }
        #expect(error?.description == "2:5: expected a value, found '@'")
        #expect(error?.problem == .unexpected(found: "'@'", expected: "a value"))
    }
}
