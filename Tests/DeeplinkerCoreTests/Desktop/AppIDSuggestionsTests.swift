import DeeplinkerCore
import Testing

/// "Did you mean …" for an app id that names no installed app, on inline lists of installed ids.
@Suite struct AppIDSuggestionsTests {
    static let installed = [
        "org.gnome.TextEditor", "org.gnome.Nautilus", "org.gnome.Terminal", "org.gnome.gedit", "firefox-esr",
        "org.freedesktop.DBus", "org.gnome.TextEditor", "com.bestrecipes.App",
    ]

    @Test func levenshteinIgnoringCase() {
        #expect(AppIDSuggestions.distance("kitten", "sitting") == 3)
        #expect(AppIDSuggestions.distance("", "abc") == 3)
        #expect(AppIDSuggestions.distance("abc", "") == 3)
        #expect(AppIDSuggestions.distance("Org.Gnome.TextEditor", "org.gnome.texteditor") == 0)
        #expect(AppIDSuggestions.distance("org.gnome.TextEdtor", "org.gnome.TextEditor") == 1)
        #expect(AppIDSuggestions.distance("ab", "ba") == 2)
    }

    @Test func aTypoGetsTheInstalledIDOnce() {
        #expect(AppIDSuggestions.nearest(to: "org.gnome.TextEdtor", among: Self.installed) == ["org.gnome.TextEditor"])
        #expect(AppIDSuggestions.nearest(to: "org.gnome.texteditor", among: Self.installed) == ["org.gnome.TextEditor"])
        #expect(AppIDSuggestions.nearest(to: "firefox", among: Self.installed) == [])
        #expect(AppIDSuggestions.nearest(to: "firefox-es", among: Self.installed) == ["firefox-esr"])
        // The id itself is no suggestion; nothing near gives nothing.
        #expect(AppIDSuggestions.nearest(to: "com.bestrecipes.App", among: Self.installed) == [])
        #expect(AppIDSuggestions.nearest(to: "net.example.Unrelated", among: Self.installed) == [])
    }

    @Test func nearestFirstAtMostThree() {
        let ids = ["a.b.Cdef5", "a.b.Cdef1", "a.b.Cdef", "a.b.Cdex", "a.b.Cdefgh", "a.b.Cde"]
        // Threshold max(2, 8 / 4) = 2: distance 1 for Cdef1, Cdef5, Cde, Cdex; 2 for Cdefgh.
        #expect(AppIDSuggestions.threshold(for: "a.b.Cdef") == 2)
        #expect(AppIDSuggestions.nearest(to: "a.b.Cdef", among: ids) == ["a.b.Cde", "a.b.Cdef1", "a.b.Cdef5"])
        #expect(AppIDSuggestions.threshold(for: "org.example.VeryLongApplication") == 7)
    }
}
