import DeeplinkerCore
import Testing

/// The entries of SPEC §8: the hidden handler, the override that keeps the app's entry, the
/// minimal entry, and the rewrite of actions when an app publishes shortcuts.
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

    static let installedText = """
        # Installed by the Best Recipes package
        [Desktop Entry]
        Type=Application
        Name=Best Recipes
        Name[fr]=Meilleures Recettes
        GenericName=Recipe Book
        Comment=Cook something
        Comment[fr]=Cuisinez
        Exec=bestrecipes %U
        TryExec=bestrecipes
        Icon=com.bestrecipes.App
        # the app is D-Bus activatable
        DBusActivatable=true
        Keywords=food;cooking;
        Keywords[fr]=cuisine;
        Categories=GTK;Utility;
        StartupWMClass=bestrecipes
        StartupNotify=true
        MimeType=x-scheme-handler/bestrecipes;
        Actions=new-window;

        [Desktop Action new-window]
        Name=New Window
        Exec=bestrecipes --new-window

        [X-Vendor Extras]
        X-Thing=1

        """

    static let deeplinker = "/usr/local/bin/deeplinker"

    static func config() throws -> AppConfig {
        try RouteFileParser.parse(routeFile, appID: "com.bestrecipes.App", file: "com.bestrecipes.App.toml")
    }

    static func installed() throws -> LocatedDesktopEntry {
        LocatedDesktopEntry(path: "/usr/share/applications/com.bestrecipes.App.desktop", file: try DesktopFile(parsing: installedText))
    }

    @Test func theHandlerIsHiddenAndClaimsEachScheme() throws {
        let config = try RouteFileParser.parse(
            "name = \"Apartments\"\nschemes = [\"deeplinkTutorial\", \"plain\"]\n", appID: "com.example.Apartments", file: "x.toml")
        let handler = try #require(DesktopEntry.handler(config: config, executable: Self.deeplinker))
        #expect(handler.value("NoDisplay") == "true")
        #expect(handler.value("Exec") == "/usr/local/bin/deeplinker open --app com.example.Apartments %u")
        #expect(handler.list("MimeType") == [
            "x-scheme-handler/deeplinktutorial", "x-scheme-handler/deeplinkTutorial", "x-scheme-handler/plain",
        ])
        #expect(DesktopEntryLocator.isDeeplinkerEntry(handler))
        #expect(DesktopEntry.handlerFileName(appID: config.appID) == "com.example.Apartments.deeplinker.desktop")
        #expect(handler.value("DBusActivatable") == nil)
        #expect(handler.value("StartupNotify") == "true")
        let activatable = try #require(DesktopEntry.handler(config: config, executable: Self.deeplinker, dbusActivatable: true))
        #expect(activatable.value("DBusActivatable") == "true")
        #expect(activatable.value("Exec") == handler.value("Exec"))
        #expect(DesktopEntry.handlerService(appID: config.appID, daemon: "/usr/local/bin/deeplinkerd").contains(
            "\n[D-BUS Service]\nName=com.example.Apartments.deeplinker\nExec=/usr/local/bin/deeplinkerd\nSystemdService=deeplinkerd.service\n"))
        let noSchemes = try RouteFileParser.parse("name = \"x\"\n", appID: "com.example.X", file: "x.toml")
        #expect(DesktopEntry.handler(config: noSchemes, executable: Self.deeplinker) == nil)
    }

    @Test func theOverrideKeepsEverythingButWhatSection8Lists() throws {
        let installed = try Self.installed()
        let file = DesktopEntry.override(of: installed, config: try Self.config(), executable: Self.deeplinker)
        let text = file.rendered()
        #expect(file.value("Exec") == "/usr/local/bin/deeplinker launch com.bestrecipes.App")
        #expect(file.value("DBusActivatable") == nil)
        #expect(file.value(DesktopEntryLocator.sourceKey) == installed.path)
        #expect(file.list("Actions") == ["com-bestrecipes-favorites", "com-bestrecipes-search"])
        #expect(file.groups == [
            "Desktop Entry", "X-Vendor Extras", "Desktop Action com-bestrecipes-favorites", "Desktop Action com-bestrecipes-search",
        ])
        #expect(file.value("Exec", in: "Desktop Action com-bestrecipes-search")
            == "/usr/local/bin/deeplinker shortcut com.bestrecipes.App com.bestrecipes.search")
        #expect(file.value("Icon", in: "Desktop Action com-bestrecipes-favorites") == "starred")
        // Every other line of the installed entry is there, in order.
        var expected = Self.installedText
            .replacingOccurrences(of: "Exec=bestrecipes %U\n", with: "Exec=/usr/local/bin/deeplinker launch com.bestrecipes.App\n")
            .replacingOccurrences(of: "DBusActivatable=true\n", with: "")
            .replacingOccurrences(of: "Actions=new-window;\n", with: "Actions=com-bestrecipes-favorites;com-bestrecipes-search;\n")
            .replacingOccurrences(of: "\n[Desktop Action new-window]\nName=New Window\nExec=bestrecipes --new-window\n", with: "")
        expected = expected.replacingOccurrences(
            of: "Actions=com-bestrecipes-favorites;com-bestrecipes-search;\n",
            with: "Actions=com-bestrecipes-favorites;com-bestrecipes-search;\nX-Deeplinker-Source=/usr/share/applications/com.bestrecipes.App.desktop\n")
        #expect(text.hasPrefix(expected.replacingOccurrences(of: "X-Thing=1\n\n", with: "X-Thing=1\n")))
        for line in ["Name[fr]=Meilleures Recettes", "Keywords=food;cooking;", "Keywords[fr]=cuisine;", "Categories=GTK;Utility;",
                     "StartupWMClass=bestrecipes", "# the app is D-Bus activatable", "# Installed by the Best Recipes package",
                     "TryExec=bestrecipes", "Comment[fr]=Cuisinez"] {
            #expect(text.contains(line + "\n"), "\(line)")
        }
        // Derivation is stable: deriving from the same source gives the same text.
        #expect(DesktopEntry.override(of: installed, config: try Self.config(), executable: Self.deeplinker).rendered() == text)
    }

    @Test func anOverrideWithNoPublishedShortcutsHasNoActions() throws {
        let file = DesktopEntry.override(of: try Self.installed(), config: try Self.config(), shortcuts: [], executable: Self.deeplinker)
        #expect(file.value("Actions") == nil)
        #expect(!file.groups.contains { $0.hasPrefix("Desktop Action") })
    }

    @Test func theMinimalEntryIsMarkedAsOursAndLaunches() throws {
        let file = DesktopEntry.appEntry(config: try Self.config(), installed: nil, executable: Self.deeplinker)
        #expect(file.value("Exec") == "/usr/local/bin/deeplinker launch com.bestrecipes.App")
        #expect(file.value(DesktopEntryLocator.generatedKey) == "true")
        #expect(file.value("Name") == "Best Recipes")
        #expect(file.list("Actions") == ["com-bestrecipes-favorites", "com-bestrecipes-search"])
        #expect(DesktopEntry.shortcutTypes(in: file) == ["com.bestrecipes.favorites", "com.bestrecipes.search"])
        #expect(DesktopEntry.render(config: try Self.config(), executable: Self.deeplinker) == file.rendered())
    }

    @Test func replacingActionsKeepsTheRestAndItsProgram() throws {
        let config = try Self.config()
        var file = DesktopEntry.override(of: try Self.installed(), config: config, executable: "/opt/my tools/deeplinker")
        file.setValue("yes", for: "X-Added-By-User")
        let rewritten = DesktopEntry.replacingActions(in: file, config: config, shortcuts: ["com.bestrecipes.search"])
        #expect(rewritten.value("X-Added-By-User") == "yes")
        #expect(rewritten.list("Actions") == ["com-bestrecipes-search"])
        #expect(rewritten.value("Exec", in: "Desktop Action com-bestrecipes-search")
            == #""/opt/my tools/deeplinker" shortcut com.bestrecipes.App com.bestrecipes.search"#)
        #expect(DesktopEntry.executable(of: rewritten) == "/opt/my tools/deeplinker")
        var expected = DesktopEntry.override(
            of: try Self.installed(), config: config, shortcuts: ["com.bestrecipes.search"], executable: "/opt/my tools/deeplinker")
        expected.setValue("yes", for: "X-Added-By-User")
        #expect(rewritten == expected)
        let none = DesktopEntry.replacingActions(in: rewritten, config: config, shortcuts: [])
        #expect(none.value("Actions") == nil)
        #expect(none.rendered().hasSuffix("X-Thing=1\n"))
    }

    @Test(arguments: ["/usr/bin/deeplinker", "/opt/my tools/deeplinker", #"/odd/a"b$c`d\e%f/deeplinker"#])
    func anExecutablePathSurvivesQuoting(path: String) throws {
        let file = DesktopEntry.minimal(config: try Self.config(), executable: path)
        let reparsed = try DesktopFile(parsing: file.rendered())
        #expect(DesktopEntry.executable(of: reparsed) == path)
        #expect(DesktopEntry.shortcutTypes(in: reparsed) == ["com.bestrecipes.favorites", "com.bestrecipes.search"])
    }

    @Test func firstVersionEntriesCountAsOurs() throws {
        let old = try DesktopFile(parsing: "[Desktop Entry]\nType=Application\nName=x\nExec=deeplinker open --app a.B %u\n")
        #expect(DesktopEntryLocator.isDeeplinkerEntry(old))
        #expect(!DesktopEntryLocator.isDeeplinkerEntry(try Self.installed().file))
    }

    @Test func actionIDsStayUniqueWhenTypesDifferOnlyInPunctuation() {
        #expect(DesktopEntry.actionIDs(["a-b", "a.b", "a_b", "c"]) == ["a-b", "a-b-2", "a-b-3", "c"])
    }

    @Test func mixedCaseSchemeIsRegisteredAsWrittenToo() throws {
        let config = try RouteFileParser.parse(
            "schemes = [\"deeplinkTutorial\", \"plain\"]\n", appID: "com.example.Apartments", file: "com.example.Apartments.toml")
        #expect(config.schemes == ["deeplinktutorial", "plain"])
        #expect(DesktopEntry.handlerSchemes(config) == ["deeplinktutorial", "deeplinkTutorial", "plain"])
    }
}
