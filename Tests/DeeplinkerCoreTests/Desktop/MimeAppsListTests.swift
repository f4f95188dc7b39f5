import DeeplinkerCore
import Testing

/// Editing `mimeapps.list`: our default goes first, everything else is kept, and removing it
/// restores the file.
struct MimeAppsListTests {
    static let text = """
        # my associations
        [Added Associations]
        text/plain=org.gnome.TextEditor.desktop;

        [Default Applications]
        text/html=firefox.desktop;
        x-scheme-handler/bestrecipes=com.bestrecipes.App.desktop;
        x-scheme-handler/https=firefox.desktop;

        [Removed Associations]
        image/png=gimp.desktop;

        """

    @Test func makingADefaultTouchesOnlyItsKey() throws {
        var list = try MimeAppsList(parsing: Self.text)
        let first = list.makeDefault("a.B.deeplinker.desktop", for: "x-scheme-handler/bestrecipes")
        let spelled = list.makeDefault("a.B.deeplinker.desktop", for: "x-scheme-handler/bestRecipes")
        let again = list.makeDefault("a.B.deeplinker.desktop", for: "x-scheme-handler/bestrecipes")
        #expect(first && spelled && !again)
        #expect(list.defaults(for: "x-scheme-handler/bestrecipes") == ["a.B.deeplinker.desktop", "com.bestrecipes.App.desktop"])
        let expected = Self.text
            .replacingOccurrences(
                of: "x-scheme-handler/bestrecipes=com.bestrecipes.App.desktop;\n",
                with: "x-scheme-handler/bestrecipes=a.B.deeplinker.desktop;com.bestrecipes.App.desktop;\n")
            .replacingOccurrences(
                of: "x-scheme-handler/https=firefox.desktop;\n",
                with: "x-scheme-handler/https=firefox.desktop;\nx-scheme-handler/bestRecipes=a.B.deeplinker.desktop;\n")
        #expect(list.rendered() == expected)
        #expect(list.mimeTypes(defaultingTo: "a.B.deeplinker.desktop") == ["x-scheme-handler/bestrecipes", "x-scheme-handler/bestRecipes"])
    }

    @Test func removingTheDefaultRestoresTheFile() throws {
        var list = try MimeAppsList(parsing: Self.text)
        list.makeDefault("a.B.deeplinker.desktop", for: "x-scheme-handler/bestrecipes")
        list.makeDefault("a.B.deeplinker.desktop", for: "x-scheme-handler/new")
        let removed = list.removeDefault("a.B.deeplinker.desktop")
        #expect(removed == ["x-scheme-handler/bestrecipes", "x-scheme-handler/new"])
        #expect(list.rendered() == Self.text)
        let again = list.removeDefault("a.B.deeplinker.desktop")
        #expect(again.isEmpty)
    }

    @Test func aMissingFileGetsTheDefaultsGroup() {
        var list = MimeAppsList()
        list.makeDefault("a.B.deeplinker.desktop", for: "x-scheme-handler/b")
        #expect(list.rendered() == "[Default Applications]\nx-scheme-handler/b=a.B.deeplinker.desktop;\n")
        list.removeDefault("a.B.deeplinker.desktop")
        #expect(list.rendered() == "[Default Applications]\n")
    }

    @Test func aBrokenFileIsLocated() {
        #expect(throws: DesktopFileError(line: 2, column: 1, message: "\"oops\" is not a key=value line, a [group] or a # comment")) {
            try MimeAppsList(parsing: "[Default Applications]\noops\n")
        }
    }
}
