import DeeplinkerCore
import DeeplinkerRouteFiles
import DeeplinkerTestSupport
import Foundation
import Testing
@testable import DeeplinkerDaemon

/// Route file search path, first-found-wins, and per-app isolation on load and reload (real temp dirs).
struct RouteDirectoryTests {
    static let good = "schemes = [\"a\"]\n[targets]\nhome = {}\n[[routes]]\npath = \"/\"\ntarget = \"home\"\n"
    static let other = "schemes = [\"b\"]\n[targets]\nhome = {}\n[[routes]]\npath = \"/x\"\ntarget = \"home\"\n"

    /// A fresh temporary directory, removed when `body` returns or throws.
    func withTempDir(_ body: (String) throws -> Void) throws {
        try TemporaryDirectory.with { try body($0.path) }
    }

    func write(_ text: String, to path: String) throws {
        try TestFiles.write(text, to: path)
    }

    @Test func searchPath() {
        #expect(RouteDirectory.searchPath(configDir: "/etc/x", environment: ["XDG_CONFIG_HOME": "/c"]) == ["/etc/x"])
        #expect(RouteDirectory.searchPath(configDir: nil, environment: ["HOME": "/home/u"])
            == ["/home/u/.config/deeplinker/apps", "/usr/local/share/deeplinker/apps", "/usr/share/deeplinker/apps"])
        #expect(RouteDirectory.searchPath(configDir: nil, environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg/", "XDG_DATA_DIRS": "/d1:relative::/d2"])
            == ["/cfg/deeplinker/apps", "/d1/deeplinker/apps", "/d2/deeplinker/apps"])
        #expect(RouteDirectory.searchPath(configDir: nil, environment: ["HOME": "/h", "XDG_CONFIG_HOME": "rel", "XDG_DATA_DIRS": ""])
            == ["/h/.config/deeplinker/apps", "/usr/local/share/deeplinker/apps", "/usr/share/deeplinker/apps"])
    }

    @Test func firstFoundWinsPerAppID() throws {
        try withTempDir { root in
            let first = root + "/first", second = root + "/second"
            try write(Self.good, to: first + "/com.a.App.toml")
            try write(Self.other, to: second + "/com.a.App.toml")
            try write(Self.other, to: second + "/com.b.App.toml")
            try write("ignored", to: second + "/README.md")
            try write("ignored", to: second + "/.com.c.App.toml")
            let result = RouteDirectory.load(directories: [first, root + "/missing", second])
            #expect(result.errors.isEmpty)
            #expect(result.configs.keys.sorted() == ["com.a.App", "com.b.App"])
            #expect(result.configs["com.a.App"]?.schemes == ["a"])
            #expect(result.files["com.a.App"] == first + "/com.a.App.toml")
        }
    }

    @Test func brokenFileIsIsolated() throws {
        try withTempDir { dir in
            try write(Self.good, to: dir + "/com.a.App.toml")
            try write("schemes = [\"b\"]\nbogus = 1\n", to: dir + "/com.b.App.toml")
            try write(Self.good, to: dir + "/not-an-id.toml")
            let result = RouteDirectory.load(directories: [dir])
            #expect(result.configs.keys.sorted() == ["com.a.App"])
            #expect(result.failedAppIDs == ["com.b.App"])
            #expect(result.errors.count == 2)
            #expect(result.errors.contains { $0.description == dir + "/com.b.App.toml:2:1: bogus: unknown key \"bogus\" (expected one of: dedupe-window, deliver-command, delivery, delivery-timeout, domains, fallback-target, launch, lifecycle-senders, max-attempts, name, notifications, open, pending-ttl, raise, ready, restore-last-route, routes, schemes, shortcuts, targets)" })
            #expect(result.errors.contains { $0.file.hasSuffix("not-an-id.toml") })
        }
    }

    @Test func reloadKeepsPreviousConfigOfBrokenFile() throws {
        try withTempDir { dir in
            try write(Self.good, to: dir + "/com.a.App.toml")
            try write(Self.other, to: dir + "/com.b.App.toml")
            try write(Self.other, to: dir + "/com.c.App.toml")
            let (initial, initialErrors) = RouteDirectory.merge(RouteDirectory.load(directories: [dir]), over: AppRegistry())
            #expect(initialErrors.isEmpty)
            #expect(initial.appIDs == ["com.a.App", "com.b.App", "com.c.App"])

            try write("schemes = [\"a\"\n", to: dir + "/com.a.App.toml")          // broken: keeps old
            try write(Self.good.replacingOccurrences(of: "\"a\"", with: "\"b2\""), to: dir + "/com.b.App.toml")  // changed
            try FileManager.default.removeItem(atPath: dir + "/com.c.App.toml")     // removed
            try write(Self.good.replacingOccurrences(of: "\"a\"", with: "\"d\""), to: dir + "/com.d.App.toml")   // added
            let (reloaded, errors) = RouteDirectory.merge(RouteDirectory.load(directories: [dir]), over: initial)
            #expect(reloaded.appIDs == ["com.a.App", "com.b.App", "com.d.App"])
            #expect(reloaded.apps["com.a.App"]?.schemes == ["a"])
            #expect(reloaded.apps["com.b.App"]?.schemes == ["b2"])
            #expect(errors.count == 1)
            #expect(errors.first?.file == dir + "/com.a.App.toml")
            #expect(errors.first?.line == 1)
            #expect(try reloaded.resolveURL(appID: "", url: "a://").appID == "com.a.App")

            // A broken file of an app that never loaded stays absent.
            try write("x = ", to: dir + "/com.e.App.toml")
            let (third, thirdErrors) = RouteDirectory.merge(RouteDirectory.load(directories: [dir]), over: reloaded)
            #expect(third.apps["com.e.App"] == nil)
            #expect(thirdErrors.count == 2)
        }
    }

    @Test func unreadableAndOversizedFiles() throws {
        try withTempDir { dir in
            try FileManager.default.createDirectory(atPath: dir + "/com.dir.App.toml", withIntermediateDirectories: true)
            try Data([0xFF, 0xFE, 0x00]).write(to: URL(fileURLWithPath: dir + "/com.bin.App.toml"))
            try write(String(repeating: "#", count: RouteDirectory.maxFileBytes + 1), to: dir + "/com.big.App.toml")
            let result = RouteDirectory.load(directories: [dir])
            #expect(result.configs.isEmpty)
            #expect(result.failedAppIDs == ["com.dir.App", "com.bin.App", "com.big.App"])
        }
    }

    @Test func loadsTheShippedExamples() throws {
        let result = RouteDirectory.load(directories: [TestRouteFiles.shippedDirectory])
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.configs.keys.sorted() == ["com.bestrecipes.App", "com.example.Apartments"])
    }
}
