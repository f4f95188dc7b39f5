import Testing
@testable import DeeplinkerCore

/// The locator maps key paths to the line/column of keys and values in the text.
struct TOMLSourceLocatorTests {
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

    let locator = TOMLSourceLocator(text: Self.text)

    func key(_ components: TOMLKeyPath.Component...) -> TextLocation? {
        locator.keyLocation(TOMLKeyPath(components))
    }

    func value(_ components: TOMLKeyPath.Component...) -> TextLocation? {
        locator.valueLocation(TOMLKeyPath(components))
    }

    @Test func topLevelKeysAndValues() {
        #expect(key(.key("name")) == TextLocation(line: 2, column: 1))
        #expect(value(.key("name")) == TextLocation(line: 2, column: 8))
        #expect(value(.key("schemes"), .index(0)) == TextLocation(line: 4, column: 3))
        #expect(value(.key("schemes"), .index(1)) == TextLocation(line: 5, column: 3))
    }

    @Test func multilineStringsAreSkipped() {
        #expect(key(.key("not")) == nil)
        #expect(key(.key("key")) == nil)
        #expect(key(.key("description")) == TextLocation(line: 7, column: 1))
    }

    @Test func tablesInlineTablesAndDottedKeys() {
        #expect(key(.key("targets")) == TextLocation(line: 12, column: 1))
        #expect(key(.key("targets"), .key("messages.details")) == TextLocation(line: 13, column: 1))
        #expect(key(.key("targets"), .key("messages.details"), .key("id")) == TextLocation(line: 13, column: 24))
        #expect(value(.key("targets"), .key("messages.details"), .key("nested"), .key("deep")) == TextLocation(line: 13, column: 57))
        #expect(key(.key("targets"), .key("recipe"), .key("id")) == TextLocation(line: 14, column: 8))
    }

    @Test func arraysOfTables() {
        #expect(key(.key("routes"), .index(0)) == TextLocation(line: 16, column: 1))
        #expect(key(.key("routes"), .index(0), .key("path")) == TextLocation(line: 17, column: 1))
        #expect(value(.key("routes"), .index(1), .key("path")) == TextLocation(line: 20, column: 8))
        #expect(key(.key("routes"), .index(1), .key("params"), .key("quoted key")) == TextLocation(line: 21, column: 12))
        #expect(key(.key("routes"), .index(1), .key("params"), .key("escA")) == TextLocation(line: 21, column: 30))
        #expect(key(.key("notifications"), .key("rules"), .index(0), .key("when")) == TextLocation(line: 27, column: 1))
        #expect(value(.key("notifications"), .key("rules"), .index(1), .key("when")) == TextLocation(line: 30, column: 14))
    }

    @Test func fallsBackToAncestorsThenStart() {
        let path = TOMLKeyPath([.key("routes"), .index(1), .key("target")])
        #expect(locator.location(path) == TextLocation(line: 19, column: 1))
        #expect(locator.location(TOMLKeyPath([.key("nothing")])) == TextLocation(line: 1, column: 1))
    }

    @Test func columnsCountCharactersNotBytes() {
        let l = TOMLSourceLocator(text: "\"név\" = \"é\"\nb = { \"ä\" = 1, c = 2 }")
        #expect(l.valueLocation(TOMLKeyPath([.key("név")])) == TextLocation(line: 1, column: 9))
        #expect(l.keyLocation(TOMLKeyPath([.key("b"), .key("c")])) == TextLocation(line: 2, column: 16))
    }

    @Test func pathDescriptions() {
        #expect(TOMLKeyPath([.key("routes"), .index(2), .key("target")]).description == "routes[2].target")
        #expect(TOMLKeyPath([.key("targets"), .key("messages.details"), .key("id")]).description == "targets.\"messages.details\".id")
    }

    @Test(arguments: ["[", "[[", "a = {", "a = [1, ", "a = \"unterminated", "a = '''x", "= 1", "[a.\"b", "a.b.", "\"", "a = { b = { c = [ { d = "])
    func malformedTextNeverTraps(text: String) {
        _ = TOMLSourceLocator(text: text)
    }
}
