import DeeplinkerClient
import DeeplinkerTestSupport
import Foundation
import Testing

/// Temporary XDG directories for the desktop tests (never the real home): `HOME`,
/// `XDG_DATA_HOME`, `XDG_CONFIG_HOME` and `XDG_DATA_DIRS` (a "system" directory where an app's
/// installed entry goes) all under the fixture's root, plus the real launchers run against them:
/// `xdg-open`, `xdg-mime`, `gio`, python's `Gio.DesktopAppInfo`, `desktop-file-validate`.
struct DesktopLauncherFixture {
    let f: DaemonFixture

    /// The environment: xdg-open's generic mode only runs an x-scheme-handler's Exec when DISPLAY
    /// (or WAYLAND_DISPLAY) is set; it never connects, so any value does.
    var environment: [String: String] {
        f.clientEnvironment([
            "PATH": TestProcess.productsDirectory.path + ":/usr/bin:/bin", "XDG_CURRENT_DESKTOP": "", "DISPLAY": ":99",
            "HOME": f.root + "/home",
            "XDG_DATA_DIRS": systemData, "GIO_USE_VFS": "local",
        ])
    }

    var systemData: String { f.root + "/system" }
    var systemApplications: String { systemData + "/applications" }
    var userApplications: String { environment["XDG_DATA_HOME"]! + "/applications" }
    var mimeapps: String { environment["XDG_CONFIG_HOME"]! + "/mimeapps.list" }

    /// The absolute path written entries name (`/proc/self/exe` of the binary).
    static var deeplinker: String { URL(fileURLWithPath: TestProcess.product("deeplinker")).resolvingSymlinksInPath().path }

    /// Writes an installed entry `<app>.desktop` into the system data directory.
    func installSystemEntry(_ app: String, _ text: String) throws {
        try TestFiles.write(text, to: "\(systemApplications)/\(app).desktop")
    }

    /// Runs `deeplinker ARGS --config-dir DIR` in the desktop environment.
    func deeplinker(_ arguments: [String]) async throws -> TestProcess.Result {
        try await TestProcess.run(TestProcess.product("deeplinker"), arguments + ["--config-dir", f.configDir], environment: environment)
    }

    func run(_ tool: String, _ arguments: [String]) async throws -> TestProcess.Result {
        try await TestProcess.run(tool, arguments, environment: environment)
    }

    /// Runs a python snippet with GIO imported as `Gio` and `sys.argv[1:]` = `arguments`.
    func gio(_ script: String, _ arguments: [String] = []) async throws -> TestProcess.Result {
        let prelude = "import sys, gi\ngi.require_version('Gio', '2.0')\nfrom gi.repository import Gio\n"
        return try await run("/usr/bin/python3", ["-c", prelude + script] + arguments)
    }

    /// The file GIO resolves a desktop-file id to ("" when none).
    func gioFilename(_ desktopID: String) async throws -> String {
        let result = try await gio("a = Gio.DesktopAppInfo.new(sys.argv[1])\nprint(a.get_filename() if a else '')", [desktopID])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    /// `desktop-file-validate FILE` prints nothing and succeeds.
    func expectValid(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let validate = try await run("/usr/bin/desktop-file-validate", [path])
        #expect(validate.status == 0 && validate.stdout.isEmpty && validate.stderr.isEmpty,
                "\(path): \(validate.stdout)\(validate.stderr)", sourceLocation: sourceLocation)
    }

    /// Subscribes to `InvocationChanged`, runs `body`, and returns the first change (for `app`
    /// when given) and the proxy that saw it.
    func firstChange(for app: String?, after body: () async throws -> Void) async throws -> (InvocationChange, DeeplinkerProxy) {
        let proxy = try f.proxy()
        let changes = Recorder<InvocationChange>()
        try await proxy.onInvocationChanged { changes.put($0) }
        try await body()
        return (try await changes.next(where: { app == nil || $0.appID == app }), proxy)
    }

    /// Runs `xdg-open URL` in the desktop environment and returns the first `InvocationChanged` it
    /// causes.
    func xdgOpen(_ url: String) async throws -> (InvocationChange, DeeplinkerProxy) {
        try await firstChange(for: nil) {
            let open = try await run("/usr/bin/xdg-open", [url])
            #expect(open.status == 0, "\(open.stdout)\(open.stderr)")
        }
    }
}
