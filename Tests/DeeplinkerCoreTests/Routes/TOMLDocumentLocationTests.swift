import Testing
@testable import DeeplinkerCore

/// Every key and value of a parsed document knows where it is written; `TOMLDocument` maps key
/// paths to those locations for route-file messages (what `TOMLSourceLocator` did by re-reading the text).
struct TOMLDocumentLocationTests {
    static let text = #"""
        # comment with [brackets] and "quotes"
        name = "x # not a comment"
        schemes = [
          "a",   # first
          'b',
        ]
        description = """
        [not.a.table]
        key = 1
        """

        [targets]
        "messages.details" = { id = "string", nested = { deep = "int" } }
        recipe.id = "int"

        [[routes]]
        path = "/a"

        [[routes]]
        path = '/b'
        params = { 'quoted key' = 1, "esc\u0041" = 2 }

        [notifications]
        target-key = "type"

        [[notifications.rules]]
        when = "data.x"

        [[notifications.rules]]
          when   =   "data.y"
        """#

    let document: TOMLDocument

    init() throws { document = try TOMLDocument(parsing: Self.text) }

    func key(_ components: TOMLKeyPath.Component...) -> TextLocation? {
        document.keyLocation(TOMLKeyPath(components))
    }

    func value(_ components: TOMLKeyPath.Component...) -> TextLocation? {
        document.valueLocation(TOMLKeyPath(components))
    }

    @Test func topLevelKeysAndValues() {
        #expect(key(.key("name")) == TextLocation(line: 2, column: 1))
        #expect(value(.key("name")) == TextLocation(line: 2, column: 8))
        #expect(value(.key("schemes"), .index(0)) == TextLocation(line: 4, column: 3))
        #expect(value(.key("schemes"), .index(1)) == TextLocation(line: 5, column: 3))
        #expect(value(.key("schemes")) == TextLocation(line: 3, column: 11))
    }

    @Test func multilineStringsAreValues() {
        #expect(key(.key("not")) == nil)
        #expect(key(.key("key")) == nil)
        #expect(key(.key("description")) == TextLocation(line: 7, column: 1))
        #expect(document.root["description"]?.string == "[not.a.table]\nkey = 1\n")
    }

    @Test func tablesInlineTablesAndDottedKeys() {
        #expect(key(.key("targets")) == TextLocation(line: 12, column: 1))
        #expect(key(.key("targets"), .key("messages.details")) == TextLocation(line: 13, column: 1))
        #expect(key(.key("targets"), .key("messages.details"), .key("id")) == TextLocation(line: 13, column: 24))
        #expect(value(.key("targets"), .key("messages.details"), .key("nested"), .key("deep")) == TextLocation(line: 13, column: 57))
        #expect(key(.key("targets"), .key("recipe")) == TextLocation(line: 14, column: 1))
        #expect(key(.key("targets"), .key("recipe"), .key("id")) == TextLocation(line: 14, column: 8))
        #expect(value(.key("targets"), .key("recipe"), .key("id")) == TextLocation(line: 14, column: 13))
    }

    @Test func arraysOfTables() {
        #expect(key(.key("routes")) == TextLocation(line: 16, column: 1))
        #expect(key(.key("routes"), .index(0)) == TextLocation(line: 16, column: 1))
        #expect(key(.key("routes"), .index(1)) == TextLocation(line: 19, column: 1))
        #expect(key(.key("routes"), .index(0), .key("path")) == TextLocation(line: 17, column: 1))
        #expect(value(.key("routes"), .index(1), .key("path")) == TextLocation(line: 20, column: 8))
        #expect(key(.key("routes"), .index(1), .key("params"), .key("quoted key")) == TextLocation(line: 21, column: 12))
        #expect(key(.key("routes"), .index(1), .key("params"), .key("escA")) == TextLocation(line: 21, column: 30))
        #expect(key(.key("notifications"), .key("rules"), .index(0), .key("when")) == TextLocation(line: 27, column: 1))
        #expect(value(.key("notifications"), .key("rules"), .index(1), .key("when")) == TextLocation(line: 30, column: 14))
        #expect(key(.key("routes"), .index(2)) == nil)
    }

    @Test func fallsBackToAncestorsThenStart() {
        let path = TOMLKeyPath([.key("routes"), .index(1), .key("target")])
        #expect(document.location(path) == TextLocation(line: 19, column: 1))
        #expect(document.location(TOMLKeyPath([.key("routes"), .index(7)])) == TextLocation(line: 16, column: 1))
        #expect(document.location(TOMLKeyPath([.key("name"), .key("x")])) == TextLocation(line: 2, column: 8))
        #expect(document.location(TOMLKeyPath([.key("name"), .key("x")]), preferValue: false) == TextLocation(line: 2, column: 1))
        #expect(document.location(TOMLKeyPath([.key("nothing")])) == TextLocation(line: 1, column: 1))
        #expect(document.location(TOMLKeyPath()) == TextLocation(line: 1, column: 1))
    }

    @Test func keyOrValueByPreference() {
        let id = TOMLKeyPath([.key("targets"), .key("messages.details"), .key("id")])
        #expect(document.location(id) == TextLocation(line: 13, column: 29))
        #expect(document.location(id, preferValue: false) == TextLocation(line: 13, column: 24))
        // An inline table in an array has no key: its start stands for it.
        let inline = try? TOMLDocument(parsing: "a = [\n  { b = 1 },\n]")
        #expect(inline?.location(TOMLKeyPath([.key("a"), .index(0)]), preferValue: false) == TextLocation(line: 2, column: 3))
    }

    @Test func headerDefiningAnImplicitTableMovesItsKey() throws {
        let d = try TOMLDocument(parsing: "[a.b]\n[a]\nc = 1")
        #expect(d.keyLocation(TOMLKeyPath([.key("a")])) == TextLocation(line: 2, column: 1))
        #expect(d.keyLocation(TOMLKeyPath([.key("a"), .key("b")])) == TextLocation(line: 1, column: 1))
        let implicit = try TOMLDocument(parsing: "[a.b]")
        #expect(implicit.keyLocation(TOMLKeyPath([.key("a")])) == TextLocation(line: 1, column: 2))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let d = try TOMLDocument(parsing: "\"név\" = \"é\"\nb = { \"ä\" = 1, c = 2 }")
        #expect(d.valueLocation(TOMLKeyPath([.key("név")])) == TextLocation(line: 1, column: 9))
        #expect(d.keyLocation(TOMLKeyPath([.key("b"), .key("c")])) == TextLocation(line: 2, column: 16))
        #expect(TOMLTestRendering.parse("a = \"é\"\u{1F600}") == "error 1:8: expected a newline or a comment after the value, found '\u{1F600}'")
    }

    @Test func byteOrderMarkIsNotAColumn() throws {
        let d = try TOMLDocument(parsing: "\u{FEFF}name = 1")
        #expect(d.keyLocation(TOMLKeyPath([.key("name")])) == TextLocation(line: 1, column: 1))
        #expect(TOMLTestRendering.parse("\u{FEFF}[{") == "error 1:2: expected a key in the [table] header, found '{'")
        // Only at the start: elsewhere it is a character TOML does not allow outside strings.
        #expect(TOMLTestRendering.parse("a = 1\n\u{FEFF}b = 2").hasPrefix("error 2:1: expected a key, a [table] header or a comment, found the whitespace character U+FEFF"))
    }

    @Test func pathDescriptions() {
        #expect(TOMLKeyPath([.key("routes"), .index(2), .key("target")]).description == "routes[2].target")
        #expect(TOMLKeyPath([.key("targets"), .key("messages.details"), .key("id")]).description == "targets.\"messages.details\".id")
        #expect(TOMLKeyPath([.key("a\"b\\c")]).description == #""a\"b\\c""#)
        #expect(TOMLKeyPath([.key("a\u{0}b\nc\u{7F}")]).description == #""a\u0000b\nc\u007F""#)
        #expect(TOMLKeyPath([.key("")]).description == #""""#)
    }
}
