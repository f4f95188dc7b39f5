import DeeplinkerCore
import Testing

/// Finding an app's own installed entry the way GIO does, never one Deeplinker wrote.
struct DesktopEntryLocatorTests {
    static let environment = [
        "HOME": "/home/u", "XDG_DATA_HOME": "/home/u/data", "XDG_DATA_DIRS": "/opt/share:relative:/usr/share/",
    ]

    static let installed = """
        [Desktop Entry]
        Type=Application
        Name=Best Recipes
        Exec=bestrecipes %U

        """

    @Test func directoriesAreInLauncherOrder() {
        #expect(DesktopEntryLocator.applicationDirectories(environment: Self.environment)
            == ["/home/u/data/applications", "/opt/share/applications", "/usr/share/applications"])
        #expect(DesktopEntryLocator.applicationDirectories(environment: ["HOME": "/home/u"])
            == ["/home/u/.local/share/applications", "/usr/local/share/applications", "/usr/share/applications"])
        #expect(DesktopEntryLocator.applicationDirectories(environment: ["XDG_DATA_HOME": "rel", "XDG_DATA_DIRS": ""])
            == ["/usr/local/share/applications", "/usr/share/applications"])
    }

    @Test func theFirstDirectoryHoldingTheEntryWins() {
        let files = [
            "/opt/share/applications/com.bestrecipes.App.desktop": Self.installed,
            "/usr/share/applications/com.bestrecipes.App.desktop": Self.installed + "X-Lower=1\n",
        ]
        let found = DesktopEntryLocator.installedEntry(appID: "com.bestrecipes.App", environment: Self.environment) { files[$0] }
        #expect(found?.path == "/opt/share/applications/com.bestrecipes.App.desktop")
        #expect(found?.file.value("Name") == "Best Recipes")
    }

    @Test func anOverrideIsFollowedToItsSource() {
        let files = [
            "/home/u/data/applications/com.bestrecipes.App.desktop":
                "[Desktop Entry]\nType=Application\nName=Best Recipes\nExec=/usr/bin/deeplinker launch com.bestrecipes.App\nX-Deeplinker-Source=/usr/share/applications/com.bestrecipes.App.desktop\n",
            "/usr/share/applications/com.bestrecipes.App.desktop": Self.installed,
        ]
        let found = DesktopEntryLocator.installedEntry(appID: "com.bestrecipes.App", environment: Self.environment) { files[$0] }
        #expect(found?.path == "/usr/share/applications/com.bestrecipes.App.desktop")
        #expect(found?.file.value("Exec") == "bestrecipes %U")
    }

    @Test func aUserEntryThatIsNotOursWins() {
        let files = [
            "/home/u/data/applications/com.bestrecipes.App.desktop": Self.installed + "X-Mine=1\n",
            "/usr/share/applications/com.bestrecipes.App.desktop": Self.installed,
        ]
        let found = DesktopEntryLocator.installedEntry(appID: "com.bestrecipes.App", environment: Self.environment) { files[$0] }
        #expect(found?.path == "/home/u/data/applications/com.bestrecipes.App.desktop")
    }

    @Test func ourMinimalEntryIsNeverReturned() {
        let minimal = "[Desktop Entry]\nType=Application\nName=x\nExec=/usr/bin/deeplinker launch a.B\nX-Deeplinker-Generated=true\n"
        let only = ["/home/u/data/applications/a.B.desktop": minimal]
        #expect(DesktopEntryLocator.installedEntry(appID: "a.B", environment: Self.environment) { only[$0] } == nil)
        #expect(DesktopEntryLocator.writtenEntry(appID: "a.B", environment: Self.environment) { only[$0] }?.file.value("Name") == "x")
        // An app installed after the minimal entry was written is found below it.
        var later = only
        later["/usr/share/applications/a.B.desktop"] = Self.installed
        #expect(DesktopEntryLocator.installedEntry(appID: "a.B", environment: Self.environment) { later[$0] }?.path
            == "/usr/share/applications/a.B.desktop")
    }

    @Test func anOverrideWhoseSourceIsGoneOrOursFallsThrough() {
        let override = "[Desktop Entry]\nName=x\nX-Deeplinker-Source=/gone/a.B.desktop\n"
        let files = ["/home/u/data/applications/a.B.desktop": override, "/opt/share/applications/a.B.desktop": override]
        #expect(DesktopEntryLocator.installedEntry(appID: "a.B", environment: Self.environment) { files[$0] } == nil)
        var withInstalled = files
        withInstalled["/usr/share/applications/a.B.desktop"] = Self.installed
        #expect(DesktopEntryLocator.installedEntry(appID: "a.B", environment: Self.environment) { withInstalled[$0] }?.path
            == "/usr/share/applications/a.B.desktop")
    }

    @Test func unparsableEntriesAreSkippedAndHiddenMeansDeleted() {
        let files = [
            "/home/u/data/applications/a.B.desktop": "garbage\n",
            "/opt/share/applications/a.B.desktop": Self.installed + "Hidden=true\n",
            "/usr/share/applications/a.B.desktop": Self.installed,
        ]
        #expect(DesktopEntryLocator.installedEntry(appID: "a.B", environment: Self.environment) { files[$0] } == nil)
        let unparsable = files.filter { !$0.key.hasPrefix("/opt") }
        #expect(DesktopEntryLocator.installedEntry(appID: "a.B", environment: Self.environment) { unparsable[$0] }?.path
            == "/usr/share/applications/a.B.desktop")
    }
}
