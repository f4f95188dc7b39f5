import Testing
@testable import DeeplinkerCore

/// `Exec` values of desktop entries turned into argv, with the field codes of the specification.
struct DesktopExecTests {
    let context = DesktopExec.Context(
        url: "bestrecipes://recipe/12?x=a b", icon: "bestrecipes", name: "Best Recipes", entryPath: "/usr/share/applications/a.desktop")

    @Test func urlCodesBecomeTheInvocationURLAsOneArgument() throws {
        #expect(try DesktopExec.argv("bestrecipes --new-window %u", context: context)
            == ["bestrecipes", "--new-window", "bestrecipes://recipe/12?x=a b"])
        #expect(try DesktopExec.argv("app %U", context: context) == ["app", "bestrecipes://recipe/12?x=a b"])
        #expect(try DesktopExec.argv("app --url=%u", context: context) == ["app", "--url=bestrecipes://recipe/12?x=a b"])
    }

    @Test func urlCodesAreDroppedWithoutAURL() throws {
        #expect(try DesktopExec.argv("app %U --flag %f", context: DesktopExec.Context()) == ["app", "--flag"])
    }

    @Test func iconNameAndLocationCodes() throws {
        #expect(try DesktopExec.argv("app %i --title %c --entry %k", context: context)
            == ["app", "--icon", "bestrecipes", "--title", "Best Recipes", "--entry", "/usr/share/applications/a.desktop"])
        #expect(try DesktopExec.argv("app %i", context: DesktopExec.Context()) == ["app"])
    }

    @Test func deprecatedCodesAreDroppedAndPercentPercentIsPercent() throws {
        #expect(try DesktopExec.argv("app %d %D %n %N %v %m 100%%", context: context) == ["app", "100%"])
    }

    @Test func quotedArgumentsKeepSpacesEscapesAndFieldCodeText() throws {
        #expect(try DesktopExec.argv(#""/opt/My App/bin/app" "say \"hi\" \$HOME \\ \`x\`" "%u""#, context: context)
            == ["/opt/My App/bin/app", #"say "hi" $HOME \ `x`"#, "%u"])
        #expect(try DesktopExec.argv("  app   a\tb  ", context: context) == ["app", "a", "b"])
        #expect(try DesktopExec.argv("app \"\"", context: context) == ["app", ""])
    }

    @Test func malformedValuesAreRefusedWithTheirColumn() {
        #expect(throws: DesktopExec.SyntaxError(column: 5, reason: "unterminated quote")) {
            try DesktopExec.argv("app \"oops", context: context)
        }
        #expect(throws: DesktopExec.SyntaxError(column: 7, reason: "invalid escape \\n inside quotes")) {
            try DesktopExec.argv("app \"\\n\"", context: context)
        }
    }
}
