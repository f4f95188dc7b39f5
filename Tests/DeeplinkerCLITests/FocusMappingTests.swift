import FocusWatch
import Testing

/// The pure parts of focus-watch: unit names of the desktop convention, and which backend `auto` picks.
@Suite struct FocusMappingTests {
    @Test(arguments: [
        ("app-gnome-org.gnome.Terminal-1234.scope", "org.gnome.Terminal"),
        ("app-deeplinker-com.example.my\\x2dapp-0a1b2c3d4e5f6a7b.scope", "com.example.my-app"),
        ("app-org.kde.dolphin-4711.scope", "org.kde.dolphin"),
        ("app-flatpak-org.gnome.Maps-98765.scope", "org.gnome.Maps"),
        ("app-gnome-org.gnome.Nautilus@12345.service", "org.gnome.Nautilus"),
        ("app-org.example.Plain.service", "org.example.Plain"),
    ])
    func scopeNames(unit: String, appID: String) {
        #expect(ScopeName.appID(unit: unit) == appID)
    }

    @Test(arguments: ["session-2.scope", "app-gnome-1234.scope", "app-.scope", "user@1000.service", "app-gnome-notanid-1.scope"])
    func notAnAppUnit(_ unit: String) {
        #expect(ScopeName.appID(unit: unit) == nil)
    }

    @Test func cgroupFilesOfBothVersions() {
        let v2 = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.gnome.Terminal-1234.scope\n"
        #expect(ScopeName.appID(inCgroup: v2) == "org.gnome.Terminal")
        let v1 = "9:name=systemd:/user.slice/user-1000.slice/user@1000.service/app.slice/app-deeplinker-org.example.App-ff.scope\n8:pids:/\n0::/\n"
        #expect(ScopeName.appID(inCgroup: v1) == "org.example.App")
        #expect(ScopeName.appID(inCgroup: "0::/user.slice/user-1000.slice/session-2.scope\n") == nil)
    }

    @Test func autoPicksFromTheEnvironment() {
        #expect(FocusBackend.pick(environment: ["SWAYSOCK": "/run/sway.sock", "WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"]) == .sway)
        #expect(FocusBackend.pick(environment: ["DISPLAY": ":0"]) == .x11)
        #expect(FocusBackend.pick(environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"]) == nil)
        #expect(FocusBackend.pick(environment: [:]) == nil)
        #expect(FocusBackend.whyNone(environment: ["WAYLAND_DISPLAY": "wayland-0"]).contains("GNOME"))
    }

    @Test func autoPicksKWinOnKDEAndLeavesGNOMEToItsExtension() {
        #expect(FocusBackend.choose(environment: ["XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0"], kwinOnBus: false) == .backend(.kwin))
        // A KDE X11 session too: the KWin script sees every window.
        #expect(FocusBackend.choose(environment: ["XDG_CURRENT_DESKTOP": "KDE", "DISPLAY": ":0"], kwinOnBus: false) == .backend(.kwin))
        #expect(FocusBackend.choose(environment: ["WAYLAND_DISPLAY": "wayland-0"], kwinOnBus: true) == .backend(.kwin))
        #expect(FocusBackend.choose(environment: ["XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "DISPLAY": ":0"], kwinOnBus: false) == .gnomeExtension)
        #expect(FocusBackend.choose(environment: ["XDG_CURRENT_DESKTOP": "KDE", "SWAYSOCK": "/s"], kwinOnBus: true) == .backend(.sway))
    }

    @Test func aKWinActivationNamesItsWindow() {
        #expect(KWinFocusSource.window(desktopFile: "", resourceClass: "", resourceName: "", pid: "") == nil)
        let window = KWinFocusSource.window(desktopFile: "org.kde.kate", resourceClass: "kate", resourceName: "kate", pid: "4242")
        #expect(window == FocusedWindow(applicationID: "org.kde.kate", pid: 4242, wmClass: ["kate", "kate"]))
        // A pid KWin turned into a double.
        #expect(KWinFocusSource.window(desktopFile: "", resourceClass: "x", resourceName: "", pid: "17.0")?.pid == 17)
        let script = KWinFocusSource.script(service: ":1.42")
        #expect(script.contains("(workspace.windowActivated || workspace.clientActivated).connect(report)"))
        #expect(script.contains(#"callDBus(":1.42", "/org/deeplinker/FocusWatch", "org.deeplinker.FocusWatch1", "Activated""#))
    }
}
