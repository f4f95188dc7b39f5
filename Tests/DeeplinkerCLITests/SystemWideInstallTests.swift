import DeeplinkerCLI
import DeeplinkerTestSupport
import Foundation
import Testing

/// What the Debian package installs for every user (SPEC §9) as `install-browser` and `doctor`
/// see it, and the package's host files against what `install-browser` writes. The package itself
/// is built, linted, installed and purged by `scripts/test-package` (docs/testing.md).
@Suite struct SystemWideInstallTests {
    static let packagedWrapper = "/usr/lib/deeplinker/native-host"

    static func packaging(_ relative: String) throws -> String {
        try TestFiles.read(TestFiles.repository("packaging/debian/" + relative))
    }

    @Test("the package's host manifests are install-browser's, naming the packaged wrapper")
    func packagedManifestsMatchInstallBrowser() throws {
        let chromium = try Self.packaging("native-messaging/chromium/org.deeplinker.native_host.json")
        let firefox = try Self.packaging("native-messaging/firefox/org.deeplinker.native_host.json")
        #expect(chromium == BrowserHosts.manifest(.chromium, wrapperPath: Self.packagedWrapper))
        #expect(chromium == BrowserHosts.manifest(.chrome, wrapperPath: Self.packagedWrapper))
        #expect(firefox == BrowserHosts.manifest(.firefox, wrapperPath: Self.packagedWrapper))
        // The wrapper runs the packaged deeplinker exactly as install-browser's runs its own.
        let exec = try #require(BrowserHosts.wrapper(executable: "/usr/bin/deeplinker").split(separator: "\n").last { $0.hasPrefix("exec ") })
        #expect(try Self.packaging("native-messaging/native-host").split(separator: "\n").contains(exec))
        // ...and each manifest goes where SPEC §9 says, under the path install-browser and doctor look at.
        let install = try Self.packaging("deeplinker.install")
        for browser in BrowserHosts.Browser.allCases {
            let folder = (BrowserHosts.systemManifestPath(browser) as NSString).deletingLastPathComponent.dropFirst()
            let source = browser == .firefox ? "firefox" : "chromium"
            #expect(install.contains("debian/native-messaging/\(source)/org.deeplinker.native_host.json \(folder)/"), "\(browser)")
        }
    }

    @Test("install-browser finds the browsers a system-wide manifest already serves")
    func systemWideManifestsAreFound() async throws {
        try await TemporaryDirectory.with { root in
            try TestFiles.write("{}", to: BrowserHosts.systemManifestPath(.chromium, root: root.path))
            try TestFiles.write("{}", to: BrowserHosts.systemManifestPath(.firefox, root: root.path))
            let found = BrowserHosts.systemWide(BrowserHosts.Browser.allCases, root: root.path)
            #expect(found.map(\.browser) == [.chromium, .firefox])
            #expect(found.map(\.path) == [
                root.path + "/etc/chromium/native-messaging-hosts/org.deeplinker.native_host.json",
                root.path + "/usr/lib/mozilla/native-messaging-hosts/org.deeplinker.native_host.json",
            ])
            #expect(BrowserHosts.systemWide([.chrome], root: root.path).isEmpty)
            let note = BrowserHosts.systemWideNote(.chromium, path: found[0].path)
            #expect(note.contains("chromium") && note.contains(found[0].path) && note.contains("system-wide"))
        }
    }

    @Test("doctor counts the package's host manifests as installed, and names apt for a broken one")
    func doctorCountsSystemWideHosts() {
        let wrapper = Self.packagedWrapper
        let userMissing = ["chromium", "chrome", "firefox"].map {
            DoctorChecks.HostManifest(browser: $0, path: "/home/u/.config/\($0)/org.deeplinker.native_host.json", text: nil)
        }
        let system = DoctorChecks.HostManifest(
            browser: "firefox", path: BrowserHosts.systemManifestPath(.firefox),
            text: BrowserHosts.manifest(.firefox, wrapperPath: wrapper), systemWide: true)
        let exists: (String) -> Bool = { $0 == wrapper }

        let without = DoctorChecks.browserHosts(domainApps: ["com.example.App"], manifests: userMissing, isExecutable: exists)
        #expect(!without.ok)
        #expect(without.fix == "deeplinker install-browser")

        let with = DoctorChecks.browserHosts(domainApps: ["com.example.App"], manifests: userMissing + [system], isExecutable: exists)
        #expect(with.ok, "\(with.line)")
        #expect(with.detail == "firefox (system-wide)")

        var broken = system
        broken.text = BrowserHosts.manifest(.firefox, wrapperPath: "/usr/lib/deeplinker/gone")
        let failed = DoctorChecks.browserHosts(domainApps: ["com.example.App"], manifests: userMissing + [broken], isExecutable: exists)
        #expect(!failed.ok)
        #expect(failed.fix.hasPrefix("sudo apt install --reinstall deeplinker"), "\(failed.fix)")
    }
}
