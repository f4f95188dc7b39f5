import DeeplinkerCore
import Testing

/// The desktop entry of SPEC §8, and the rewrite of its actions when an app publishes shortcuts.
struct DesktopEntryTests {
    static let routeFile = """
        name = "Best Recipes"
        schemes = ["bestrecipes"]

        [targets]
        home = { tab = "string?" }
        search = {}

        [[routes]]
        path = "/home"
        target = "home"

        [[shortcuts]]
        type = "com.bestrecipes.favorites"
        title = "Favorites"
        icon = "starred"
        target = "home"
        params = { tab = "favorites" }

        [[shortcuts]]
        type = "com.bestrecipes.search"
        title = "Search Recipes"
        target = "search"
        """

    static func config() throws -> AppConfig {
        try RouteFileParser.parse(routeFile, appID: "com.bestrecipes.App", file: "com.bestrecipes.App.toml")
    }

    @Test func rendersEveryShortcutAsAnAction() throws {
        let text = DesktopEntry.render(config: try Self.config())
        #expect(text.contains("Exec=deeplinker open --app com.bestrecipes.App %u\n"))
        #expect(text.contains("MimeType=x-scheme-handler/bestrecipes;\n"))
        #expect(text.contains("Actions=com-bestrecipes-favorites;com-bestrecipes-search;\n"))
        #expect(text.contains("[Desktop Action com-bestrecipes-search]\nName=Search Recipes\nExec=deeplinker shortcut com.bestrecipes.App com.bestrecipes.search\n"))
    }

    @Test func replacingActionsKeepsTheMainGroupAndItsProgram() throws {
        let config = try Self.config()
        var installed = DesktopEntry.render(config: config, executable: "/opt/my tools/deeplinker")
        installed = installed.replacingOccurrences(of: "Terminal=false\n", with: "Terminal=false\nX-Added-By-User=yes\n")
        let rewritten = DesktopEntry.replacingActions(in: installed, config: config, shortcuts: ["com.bestrecipes.search"])
        #expect(rewritten.contains(#"Exec="/opt/my tools/deeplinker" open --app com.bestrecipes.App %u"#))
        #expect(rewritten.contains("X-Added-By-User=yes\n"))
        #expect(rewritten.contains("Actions=com-bestrecipes-search;\n"))
        #expect(!rewritten.contains("com-bestrecipes-favorites"))
        #expect(rewritten.hasSuffix(#"Exec="/opt/my tools/deeplinker" shortcut com.bestrecipes.App com.bestrecipes.search"# + "\n"))
        #expect(rewritten == DesktopEntry.render(config: config, shortcuts: ["com.bestrecipes.search"], executable: "/opt/my tools/deeplinker")
            .replacingOccurrences(of: "Terminal=false\n", with: "Terminal=false\nX-Added-By-User=yes\n"))
    }

    @Test func actionIDsStayUniqueWhenTypesDifferOnlyInPunctuation() {
        #expect(DesktopEntry.actionIDs(["a-b", "a.b", "a_b", "c"]) == ["a-b", "a-b-2", "a-b-3", "c"])
    }

    @Test func mixedCaseSchemeIsRegisteredAsWrittenToo() throws {
        let config = try RouteFileParser.parse(
            "schemes = [\"deeplinkTutorial\", \"plain\"]\n", appID: "com.example.Apartments", file: "com.example.Apartments.toml")
        #expect(config.schemes == ["deeplinktutorial", "plain"])
        #expect(DesktopEntry.handlerSchemes(config) == ["deeplinktutorial", "deeplinkTutorial", "plain"])
        #expect(DesktopEntry.render(config: config).contains(
            "MimeType=x-scheme-handler/deeplinktutorial;x-scheme-handler/deeplinkTutorial;x-scheme-handler/plain;\n"))
    }

    @Test func publishingNothingRemovesEveryAction() throws {
        let config = try Self.config()
        let rewritten = DesktopEntry.replacingActions(in: DesktopEntry.render(config: config), config: config, shortcuts: [])
        #expect(!rewritten.contains("Actions="))
        #expect(!rewritten.contains("[Desktop Action"))
        #expect(rewritten.hasSuffix("MimeType=x-scheme-handler/bestrecipes;\n"))
    }
}
