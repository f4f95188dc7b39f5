import DeeplinkerCore
import Testing

/// `delivery = "open"` and the `[open]` table (SPEC §3, §5): templates checked at load with line
/// and column, values percent-encoded, the invocation's own URL for a target without a template.
@Suite struct OpenTemplateTests {
    static let file = """
        delivery = "open"
        schemes = ["notes"]
        [targets]
        note = { name = "string" }
        search = { q = "string?", page = "int?" }
        home = {}
        [[routes]]
        path = "/open/:name"
        target = "note"
        [[routes]]
        path = "/search"
        target = "search"
        [[routes]]
        path = "/"
        target = "home"
        [open]
        note = "file:///home/u/notes/{name}.txt"
        search = "https://example.org/find?q={q}&page={page}"
        """

    static func registry() throws -> AppRegistry {
        AppRegistry([try RouteFileParser.parse(file, appID: "org.example.Notes", file: "notes.toml")])
    }

    static func uri(_ url: String) throws -> Result<String, OpenRefusal>? {
        let registry = try registry()
        let resolved = try registry.resolveURL(appID: "org.example.Notes", url: url)
        return registry.apps["org.example.Notes"]?.openURI(for: resolved)
    }

    @Test func theTemplateIsFilledWithThePercentEncodedParameter() throws {
        #expect(try Self.uri("notes://open/shopping") == .success("file:///home/u/notes/shopping.txt"))
        #expect(try Self.uri("notes://open/a%20b%2Fc%C3%A9") == .success("file:///home/u/notes/a%20b%2Fc%C3%A9.txt"))
        #expect(try Self.uri("notes://search?q=x%26y=1&page=2") == .success("https://example.org/find?q=x%26y%3D1&page=2"))
    }

    @Test func aTargetWithoutATemplateOpensTheInvocationsOwnURL() throws {
        #expect(try Self.uri("notes://") == .success("notes://"))
        let route = Route(target: "home", source: .shortcut)
        let config = try #require(try Self.registry().apps["org.example.Notes"])
        #expect(OpenTemplate.uri(for: route, templates: config.openTemplates, url: nil) == .failure(.noURL(target: "home", source: "shortcut")))
    }

    @Test func aPlaceholderWhoseOptionalParameterIsMissingFails() throws {
        let result = try Self.uri("notes://search?q=x")
        #expect(result == .failure(.missingValue(target: "search", parameter: "page")))
        if case .failure(let refusal)? = result { #expect(refusal.detail.contains("parameter \"page\"")) }
    }

    @Test func theURIShowsInTheExplanationOfRoute() throws {
        let lines = try Self.registry().explainURL(appID: "org.example.Notes", url: "notes://open/shopping").lines
        #expect(lines.last == "opens: file:///home/u/notes/shopping.txt")
    }

    @Test func otherDeliveryModesOpenNothing() throws {
        let config = try RouteFileParser.parse("[targets]\nhome = {}", appID: "a.b", file: "a.toml")
        #expect(config.openURI(for: ResolvedRoute(appID: "a.b", route: Route(target: "home", source: .url), url: "x://")) == nil)
    }

    @Test func anOpenAppsPolicyCarriesItsTemplates() throws {
        let config = try #require(try Self.registry().apps["org.example.Notes"])
        #expect(config.policy.delivery == .open(templates: config.openTemplates))
        #expect(config.policy.delivery.needsOwner && config.policy.delivery.opensURIs)
        #expect(config.openTemplates["note"]?.parameterNames == ["name"])
    }

    @Test(arguments: [
        ("[open]\nnope = \"file:///x\"", "9:1", "open.nope: undeclared target \"nope\" (declared: home, note)"),
        ("[open]\nnote = \"file:///{title}\"", "9:8", "placeholder {title} names no parameter of the target (target \"note\" declares: name)"),
        ("[open]\nnote = \"file:///{name\"", "9:8", "a '{' without its '}'"),
        ("[open]\nnote = \"file:///{}\"", "9:8", "an empty placeholder {}"),
        ("[open]\nnote = \"/home/u/{name}\"", "9:8", "no scheme"),
        ("[open]\nnote = \"file:///a b/{name}\"", "9:8", "character ' ' at byte 10 must be percent-encoded"),
        ("[open]\nnote = \"file:///%zz/{name}\"", "9:8", "malformed percent-encoding"),
        ("[open]\nnote = 5", "9:8", "expected a string"),
    ] as [(String, String, String)])
    func templateErrorsNameLineAndColumn(tail: String, location: String, fragment: String) {
        let text = """
            delivery = "open"
            [targets]
            note = { name = "string" }
            home = {}
            [[routes]]
            path = "/n/:name"
            target = "note"

            """ + tail
        do {
            _ = try RouteFileParser.parse(text, appID: "a.b", file: "a.toml")
            Issue.record("expected a ConfigError")
        } catch {
            #expect("\(error.line):\(error.column)" == location, "\(error)")
            #expect(error.message.contains(fragment), "\(error)")
            #expect(error.deeplinkerError.name == "InvalidConfig")
        }
    }

    @Test func anOpenValueThatIsNotATableIsRefused() {
        do {
            _ = try RouteFileParser.parse("delivery = \"open\"\nopen = 5\n[targets]\nhome = {}", appID: "a.b", file: "a.toml")
            Issue.record("expected a ConfigError")
        } catch {
            #expect(error.description == "a.toml:2:8: open: expected a table, found 5")
        }
    }

    @Test func anOpenTableIsCheckedWhateverTheDeliveryButOnlyOpenUsesIt() throws {
        let config = try RouteFileParser.parse("[targets]\nhome = {}\n[open]\nhome = \"file:///x\"", appID: "a.b", file: "a.toml")
        #expect(config.openTemplates["home"]?.text == "file:///x")
        #expect(config.policy.delivery == .activateAction)
        do {
            _ = try RouteFileParser.parse("[targets]\nhome = {}\n[open]\nhome = \"x y\"", appID: "a.b", file: "a.toml")
            Issue.record("expected a ConfigError")
        } catch {
            #expect(error.description.hasPrefix("a.toml:4:8: open.home: invalid URI template \"x y\""))
        }
    }

    @Test func percentEncodingKeepsOnlyUnreservedBytes() {
        #expect(OpenTemplate.percentEncoded("Az09-._~") == "Az09-._~")
        #expect(OpenTemplate.percentEncoded("a/b?c#d e%é") == "a%2Fb%3Fc%23d%20e%25%C3%A9")
    }
}
