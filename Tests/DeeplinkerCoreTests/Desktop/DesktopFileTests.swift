import DeeplinkerCore
import Testing

/// The lossless desktop-entry model: parsing, values, edits, and byte-for-byte round trips.
struct DesktopFileTests {
    static let installed = """
        # Installed by the Best Recipes package
        [Desktop Entry]
        Type=Application
        Name=Best Recipes
        Name[fr]=Meilleures Recettes
        Name[de_DE@euro]=Beste Rezepte
        GenericName = Recipe Book
        Comment=Cook\\sit\\nnow\\tand \\\\ more \\; kept
        Exec=bestrecipes %U
        Icon=com.bestrecipes.App
        # the app is D-Bus activatable
        DBusActivatable=true
        Keywords=food;cooking;recipe\\;s;
        Categories=GTK;Utility;
        StartupWMClass=bestrecipes
        MimeType=x-scheme-handler/bestrecipes;
        Actions=new-window;

        # a comment above the action
        [Desktop Action new-window]
        Name=New Window
        Name[fr]=Nouvelle fenêtre
        Exec=bestrecipes --new-window

        [X-Vendor Extras]
        X-Thing=1

        """

    @Test func lineOfAKeyCountsCommentsBlankLinesAndHeaders() throws {
        let file = try DesktopFile(parsing: Self.installed)
        #expect(file.line(of: "Type") == 3)
        #expect(file.line(of: "DBusActivatable") == 12)
        #expect(file.line(of: "Exec", in: "Desktop Action new-window") == 23)
        #expect(file.line(of: "X-Thing", in: "X-Vendor Extras") == 26)
        #expect(file.line(of: "Missing") == nil)
        #expect(file.line(of: "X-Thing") == nil, "only in its own group")
    }

    @Test func unchangedInputRoundTripsByteForByte() throws {
        let samples = [
            Self.installed,
            "[Desktop Entry]\nName=x",
            "",
            "# only a comment\n",
            "\n\n[Desktop Entry]\r\nName=a\r\n  Exec = b  \n\n\n",
            "[Desktop Entry]\n\tIndented=yes\n   # indented comment\n[Other]\nK=v\n\n",
        ]
        for text in samples {
            let file = try DesktopFile(parsing: text)
            #expect(file.rendered() == text)
        }
    }

    @Test func valuesAreUnlocalizedAndUnescaped() throws {
        let file = try DesktopFile(parsing: Self.installed)
        #expect(file.groups == ["Desktop Entry", "Desktop Action new-window", "X-Vendor Extras"])
        #expect(file.value("Name") == "Best Recipes")
        #expect(file.value("Name[fr]") == "Meilleures Recettes")
        #expect(file.value("GenericName") == "Recipe Book")
        #expect(file.value("Comment") == "Cook it\nnow\tand \\ more \\; kept")
        #expect(file.value("Name", in: "Desktop Action new-window") == "New Window")
        #expect(file.value("Missing") == nil)
        #expect(file.value("Name", in: "No Such Group") == nil)
        #expect(file.list("Keywords") == ["food", "cooking", "recipe;s"])
        #expect(file.list("Actions") == ["new-window"])
        #expect(file.group("Desktop Entry")?.keys.contains("Name[de_DE@euro]") == true)
    }

    @Test func aRepeatedKeyReadsItsLastValueAndSetKeepsOne() throws {
        var file = try DesktopFile(parsing: "[Desktop Entry]\nName=a\nIcon=i\nName=b\n")
        #expect(file.value("Name") == "b")
        file.setValue("c", for: "Name")
        #expect(file.rendered() == "[Desktop Entry]\nName=c\nIcon=i\n")
    }

    @Test func setValueKeepsPlaceAndAppendsAfterTheLastEntry() throws {
        var file = try DesktopFile(parsing: Self.installed)
        file.setRawValue("/usr/bin/deeplinker launch com.bestrecipes.App", for: "Exec")
        file.setValue(" leading space", for: "X-Note")
        file.removeKey("DBusActivatable")
        let text = file.rendered()
        #expect(text.contains("Icon=com.bestrecipes.App\n# the app is D-Bus activatable\nKeywords="))
        #expect(text.contains("Exec=/usr/bin/deeplinker launch com.bestrecipes.App\nIcon="))
        #expect(text.contains("Actions=new-window;\nX-Note=\\sleading space\n\n# a comment above the action\n[Desktop Action new-window]"))
        #expect(try DesktopFile(parsing: text).value("X-Note") == " leading space")
        #expect(!text.contains("DBusActivatable"))
    }

    @Test func removeKeyCanTakeItsTranslations() throws {
        var file = try DesktopFile(parsing: Self.installed)
        file.removeKey("Name", includingLocalized: true)
        #expect(file.group("Desktop Entry")?.keys.contains { $0.hasPrefix("Name") } == false)
        #expect(file.value("GenericName") == "Recipe Book")
        var only = try DesktopFile(parsing: Self.installed)
        only.removeKey("Name")
        #expect(only.value("Name[fr]") == "Meilleures Recettes")
    }

    @Test func removingGroupsTakesTheirCommentsAndTrailingBlanks() throws {
        var file = try DesktopFile(parsing: Self.installed)
        file.removeGroups { $0.hasPrefix("Desktop Action ") }
        #expect(file.groups == ["Desktop Entry", "X-Vendor Extras"])
        #expect(!file.rendered().contains("a comment above the action"))
        file.removeGroup("X-Vendor Extras")
        #expect(file.rendered().hasSuffix("Actions=new-window;\n"))
        #expect(file.rendered().hasPrefix("# Installed by the Best Recipes package\n[Desktop Entry]\n"))
    }

    @Test func appendedGroupsAreSeparatedByOneBlankLine() throws {
        var file = try DesktopFile(parsing: "[Desktop Entry]\nName=x\n\n\n")
        file.appendGroup("Desktop Action a", entries: [(key: "Name", value: "A"), (key: "Exec", value: "run a")])
        file.setValue("yes", for: "X-New", in: "X-Group")
        #expect(file.rendered() == "[Desktop Entry]\nName=x\n\n[Desktop Action a]\nName=A\nExec=run a\n\n[X-Group]\nX-New=yes\n")
        var empty = DesktopFile()
        empty.setValue("Application", for: "Type")
        #expect(empty.rendered() == "[Desktop Entry]\nType=Application\n")
    }

    @Test func listsEscapeSemicolons() throws {
        var file = DesktopFile()
        file.setList(["a;b", "c"], for: "Keywords")
        #expect(file.rendered() == "[Desktop Entry]\nKeywords=a\\;b;c;\n")
        #expect(file.list("Keywords") == ["a;b", "c"])
    }

    @Test(arguments: [
        ("Name=x\n[Desktop Entry]\n", 1, 1, "before the first [group]"),
        ("[Desktop Entry]\nName\n", 2, 1, "is not a key=value line"),
        ("[Desktop Entry\nName=x\n", 1, 15, "has no closing ]"),
        ("[Desktop Entry] x\n", 1, 17, "after the group header"),
        ("[Desktop Entry]\n[Other]\n[Desktop Entry]\n", 3, 1, "appears again (first on line 1)"),
        ("[Desktop Entry]\n  Na me=x\n", 2, 5, "may not contain \" \""),
        ("[Desktop Entry]\nName[fr=x\n", 2, 8, "no closing ]"),
        ("[Desktop Entry]\nName[fr]x=y\n", 2, 9, "may not contain \"x\""),
        ("[Desktop Entry]\n=x\n", 2, 1, "empty key"),
        ("[De[sk]\n", 1, 4, "may not contain \"[\""),
    ])
    func malformedTextIsLocated(text: String, line: Int, column: Int, message: String) {
        #expect {
            try DesktopFile(parsing: text)
        } throws: { error in
            guard let error = error as? DesktopFileError else { return false }
            return error.line == line && error.column == column && error.message.contains(message)
        }
    }
}
