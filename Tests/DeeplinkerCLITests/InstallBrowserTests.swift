import DeeplinkerCLI
import DeeplinkerCore
import DeeplinkerTestSupport
import Foundation
import Testing

/// `install-browser` and `uninstall-browser` (SPEC §10) in a temporary home.
@Suite struct InstallBrowserTests {
    let extensionID = "chrome-extension://\(BrowserHosts.chromiumExtensionID)/"

    func environment(_ home: TemporaryDirectory) -> [String: String] {
        var environment = DaemonFixture.processEnvironment()
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appending("config")
        environment["XDG_DATA_HOME"] = home.appending("data")
        return environment
    }

    func run(_ arguments: [String], _ home: TemporaryDirectory) async throws -> TestProcess.Result {
        try await TestProcess.run(TestProcess.product("deeplinker"), arguments, environment: environment(home))
    }

    func json(_ path: String) throws -> [String: Any] {
        try DaemonFixture.json(try String(contentsOfFile: path, encoding: .utf8))
    }

    /// Every file under `root` with its contents.
    func files(_ root: String) -> [String: String] {
        var out: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = root + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                out[relative] = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "<binary>"
            }
        }
        return out
    }

    @Test func installWritesAManifestPerBrowserAndTheWrapper() async throws {
        try await TemporaryDirectory.with { home in
            let result = try await run(["install-browser"], home)
            #expect(result.status == 0, "\(result.stderr)")
            let wrapper = home.appending("data/deeplinker/native-host")
            let chromium = home.appending("config/chromium/NativeMessagingHosts/org.deeplinker.native_host.json")
            let chrome = home.appending("config/google-chrome/NativeMessagingHosts/org.deeplinker.native_host.json")
            let firefox = home.appending(".mozilla/native-messaging-hosts/org.deeplinker.native_host.json")
            #expect(result.lines == ["wrote \(wrapper)", "wrote \(chromium)", "wrote \(chrome)", "wrote \(firefox)"])
            for path in [chromium, chrome] {
                let manifest = try json(path)
                #expect(manifest["name"] as? String == "org.deeplinker.native_host")
                #expect(manifest["type"] as? String == "stdio")
                #expect(manifest["path"] as? String == wrapper)
                #expect(manifest["allowed_origins"] as? [String] == [extensionID])
                #expect(manifest["allowed_extensions"] == nil)
            }
            let gecko = try json(firefox)
            #expect(gecko["path"] as? String == wrapper)
            #expect(gecko["allowed_extensions"] as? [String] == ["extension@deeplinker.org"])
            #expect(gecko["allowed_origins"] == nil)

            let script = try String(contentsOfFile: wrapper, encoding: .utf8)
            #expect(script.contains("exec '\(TestProcess.product("deeplinker"))' native-host \"$@\""), "\(script)")
            #expect(FileManager.default.isExecutableFile(atPath: wrapper))

            // Again: harmless, the same files.
            let before = files(home.path)
            #expect(try await run(["install-browser"], home).status == 0)
            #expect(files(home.path) == before)
        }
    }

    @Test func theWrapperRunsTheHostWithTheBrowsersArguments() async throws {
        try await TemporaryDirectory.with { home in
            #expect(try await run(["install-browser", "--browser", "chromium"], home).status == 0)
            // As Chromium starts it: the wrapper's path, the extension's origin as the argument.
            let host = try NativeHostProcess(
                executable: home.appending("data/deeplinker/native-host"), arguments: [extensionID],
                environment: environment(home).merging(["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(home.appending("no-bus"))"]) { $1 })
            let reply = try await host.ask(#"{"type":"claims"}"#)
            #expect(reply["type"] as? String == "error")
            #expect(reply["error"] as? String == "daemon-down")
            host.closeInput()
            #expect(try await host.waitForExit() == 0)
        }
    }

    @Test func oneBrowserAndJSON() async throws {
        try await TemporaryDirectory.with { home in
            let result = try await run(["install-browser", "--browser", "firefox", "--exec", "/opt/deeplinker/bin/deeplinker", "--json"], home)
            #expect(result.status == 0, "\(result.stderr)")
            let body = try DaemonFixture.json(result.stdout)
            #expect(body["manifests"] as? [String: String] == ["firefox": home.appending(".mozilla/native-messaging-hosts/org.deeplinker.native_host.json")])
            #expect(Set(files(home.path).keys) == [".mozilla/native-messaging-hosts/org.deeplinker.native_host.json", "data/deeplinker/native-host"])
            #expect(try String(contentsOfFile: home.appending("data/deeplinker/native-host"), encoding: .utf8)
                .contains("exec '/opt/deeplinker/bin/deeplinker' native-host"))
            #expect(try await run(["install-browser", "--browser", "safari"], home).status == 2)
            #expect(try await run(["install-browser", "--exec", "relative/deeplinker"], home).status == 2)
        }
    }

    @Test func uninstallRemovesExactlyWhatInstallWrote() async throws {
        try await TemporaryDirectory.with { home in
            // Other hosts and files in the same folders stay.
            for (path, text) in [
                "config/chromium/NativeMessagingHosts/com.other.host.json": "{}\n",
                ".mozilla/native-messaging-hosts/com.other.host.json": "{}\n",
                "data/deeplinker/keep.txt": "mine\n",
            ] {
                try FileManager.default.createDirectory(atPath: (home.appending(path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try text.write(toFile: home.appending(path), atomically: true, encoding: .utf8)
            }
            let before = files(home.path)
            #expect(try await run(["install-browser"], home).status == 0)
            #expect(files(home.path).count == before.count + 4)

            // One browser: its manifest goes, the wrapper stays for the others.
            let one = try await run(["uninstall-browser", "--browser", "chrome"], home)
            #expect(one.lines == ["removed \(home.appending("config/google-chrome/NativeMessagingHosts/org.deeplinker.native_host.json"))"])
            #expect(FileManager.default.fileExists(atPath: home.appending("data/deeplinker/native-host")))

            let all = try await run(["uninstall-browser"], home)
            #expect(all.status == 0, "\(all.stderr)")
            #expect(all.lines.count == 3, "\(all.stdout)")
            #expect(files(home.path) == before)
            let again = try await run(["uninstall-browser"], home)
            #expect(again.status == 0)
            #expect(again.stdout.isEmpty)
        }
    }

    /// The ids the manifests allow are the extension's own: Chromium's from its `key` (the first
    /// 32 hex digits of the key's SHA-256, 0-f as a-p), Firefox's from `browser_specific_settings`.
    @Test func theAllowedIDsAreTheExtensions() async throws {
        let manifestPath = TestFiles.repository("Browser/extension/manifest.json")
        let manifest = try json(manifestPath)
        let gecko = (manifest["browser_specific_settings"] as? [String: Any])?["gecko"] as? [String: Any]
        #expect(gecko?["id"] as? String == BrowserHosts.firefoxExtensionID)
        let key = try #require(manifest["key"] as? String)
        let script = """
            import base64, hashlib, sys
            digest = hashlib.sha256(base64.b64decode(sys.argv[1])).hexdigest()[:32]
            print(''.join(chr(ord('a') + int(c, 16)) for c in digest))
            """
        let result = try await TestProcess.run("/usr/bin/python3", ["-c", script, key])
        #expect(result.stdout == BrowserHosts.chromiumExtensionID + "\n", "\(result.stderr)")
    }
}
