import DBusKit
import DeeplinkerClient
import DeeplinkerCore
import DeeplinkerTestSupport
import Foundation
import Testing

/// `scripts/install` and `scripts/install --uninstall` into temporary prefixes (SPEC §9), with
/// the binaries this test run built (`--from-build-dir`), checked with the real tools:
/// systemd-analyze, a private dbus-daemon that activates the installed daemon, the installed CLI.
@Suite("scripts/install")
struct InstallTests {
    static let script = TestFiles.repository("scripts/install")
    static var buildDirectory: String { TestProcess.productsDirectory.path }

    /// The files an install into `prefix` writes (the unit's folder depends on the prefix).
    static func installedFiles(prefix: String, unitDirectory: String) -> [String] {
        [
            "bin/deeplinkerd", "bin/deeplinker", unitDirectory + "/deeplinkerd.service", unitDirectory + "/deeplinker-focus.service",
            "share/dbus-1/services/org.deeplinker.Deeplinker1.service",
            "share/dbus-1/interfaces/org.deeplinker.Deeplinker1.xml",
            "share/bash-completion/completions/deeplinker", "share/bash-completion/completions/deeplinkerd",
            "share/zsh/site-functions/_deeplinker", "share/zsh/site-functions/_deeplinkerd",
            "share/fish/vendor_completions.d/deeplinker.fish", "share/fish/vendor_completions.d/deeplinkerd.fish",
            "share/man/man1/deeplinker.1", "share/man/man1/deeplinkerd.1",
        ].map { prefix + "/" + $0 } + gnomeExtensionFiles.map { prefix + "/share/deeplinker/gnome-shell/focus@deeplinker.org/" + $0 }
    }

    /// The GNOME Shell extension's shipped files (both formats), under share/deeplinker/gnome-shell.
    static let gnomeExtensionFiles = [
        "focus.js", "gnome-43/extension.js", "gnome-43/metadata.json", "gnome-45/extension.js", "gnome-45/metadata.json",
    ]

    @Test("the installed deeplinker finds the extension's files in its prefix and installs the format of the GNOME Shell it is given, then removes exactly that")
    func installedGnomeExtension() async throws {
        try await Self.withInstall { home, prefix in
            var environment = Self.environment(home: home)
            environment["GSETTINGS_BACKEND"] = "keyfile"
            environment["XDG_CONFIG_HOME"] = home + "/.config"
            environment["XDG_DATA_HOME"] = home + "/.local/share"
            let target = home + "/.local/share/gnome-shell/extensions/focus@deeplinker.org"
            let shipped = prefix + "/share/deeplinker/gnome-shell/focus@deeplinker.org"
            for (version, format) in [("45", "gnome-45"), ("43", "gnome-43")] {
                let install = try await TestProcess.run(prefix + "/bin/deeplinker", ["install-gnome-extension", "--shell-version", version], environment: environment)
                #expect(install.status == 0, "\(install.stderr)")
                #expect(install.stdout.contains("next login"))
                #expect(Self.tree(target) == ["extension.js", "focus.js", "metadata.json"])
                #expect(try TestFiles.read(target + "/extension.js") == TestFiles.read(shipped + "/\(format)/extension.js"))
                #expect(try TestFiles.read(target + "/focus.js") == TestFiles.read(shipped + "/focus.js"))
            }
            let enabled = try await TestProcess.run("/usr/bin/gsettings", ["get", "org.gnome.shell", "enabled-extensions"], environment: environment)
            #expect(enabled.stdout == "['focus@deeplinker.org']\n")
            let uninstall = try await TestProcess.run(prefix + "/bin/deeplinker", ["uninstall-gnome-extension"], environment: environment)
            #expect(uninstall.status == 0, "\(uninstall.stderr)")
            #expect(!FileManager.default.fileExists(atPath: target))
            let after = try await TestProcess.run("/usr/bin/gsettings", ["get", "org.gnome.shell", "enabled-extensions"], environment: environment)
            #expect(after.stdout == "@as []\n")
        }
    }

    static func environment(home: String) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home
        env["DBUS_SESSION_BUS_ADDRESS"] = nil
        return env
    }

    /// Runs `body` with a temporary home and an install into `HOME/prefix`.
    static func withInstall(_ body: (_ home: String, _ prefix: String) async throws -> Void) async throws {
        try await TemporaryDirectory.with(prefix: "deeplinker-install") { directory in
            let prefix = directory.path + "/prefix"
            #expect(try await install(["--prefix", prefix], home: directory.path).status == 0)
            try await body(directory.path, prefix)
        }
    }

    static func install(_ arguments: [String], home: String) async throws -> TestProcess.Result {
        try await TestProcess.run(
            "/bin/bash", [script] + arguments + ["--from-build-dir", buildDirectory], environment: environment(home: home))
    }

    /// Every regular file under `root`, relative paths sorted.
    static func tree(_ root: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }

    /// `systemd-analyze verify` of an installed unit says nothing (checked here); returns the
    /// overall exposure score of `security --offline` and its line.
    static func verifiedExposure(of unit: String, home: String) async throws -> (Double, String) {
        let runtime = home + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        chmod(runtime, 0o700)
        let verify = try await systemdAnalyze(["--user", "verify", unit], runtime: runtime)
        #expect(verify.status == 0)
        #expect(verify.stdout.isEmpty && verify.stderr.isEmpty, "verify said: \(verify.stdout)\(verify.stderr)")
        let security = try await systemdAnalyze(["security", "--user", "--offline=yes", "--no-pager", unit], runtime: runtime)
        let name = (unit as NSString).lastPathComponent
        let line = try #require(security.stdout.split(separator: "\n").first { $0.contains("Overall exposure level for \(name):") })
        let score = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }, "\(line)")
        return (score, String(line))
    }

    static func systemdAnalyze(_ arguments: [String], runtime: String) async throws -> TestProcess.Result {
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime
        return try await TestProcess.run("/usr/bin/systemd-analyze", arguments, environment: env)
    }

    @Test("an install into a prefix puts every file in place with absolute paths, twice without harm, and prints the next steps")
    func installPutsEveryFile() async throws {
        try await TemporaryDirectory.with(prefix: "deeplinker-install") { directory in
            let home = directory.path
            let prefix = home + "/opt/deeplinker"
            let first = try await Self.install(["--prefix", prefix], home: home)
            #expect(first.status == 0, "\(first.stderr)")
            let files = Self.installedFiles(prefix: prefix, unitDirectory: "lib/systemd/user")
            #expect(Self.tree(prefix) == files.map { String($0.dropFirst(prefix.count + 1)) }.sorted())
            for file in files { #expect(FileManager.default.fileExists(atPath: file), "missing \(file)") }
            for binary in ["deeplinkerd", "deeplinker"] {
                #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/" + binary))
                let version = try await TestProcess.run(prefix + "/bin/" + binary, ["--version"], environment: Self.environment(home: home))
                #expect(version.stdout == DeeplinkerVersion.current + "\n")
            }
            let unit = try TestFiles.read(prefix + "/lib/systemd/user/deeplinkerd.service")
            #expect(unit.contains("\nExecStart=\(prefix)/bin/deeplinkerd\n"))
            #expect(unit.contains("\nExecReload=\(prefix)/bin/deeplinker reload\n"))
            let service = try TestFiles.read(prefix + "/share/dbus-1/services/org.deeplinker.Deeplinker1.service")
            #expect(service.contains("\nExec=\(prefix)/bin/deeplinkerd\n"))
            #expect(service.contains("SystemdService=deeplinkerd.service"))
            for text in [unit, service] {
                #expect(!text.contains("@bindir@"))
                #expect(!text.contains("/usr/bin/env"))
            }
            let xml = try TestFiles.read(prefix + "/share/dbus-1/interfaces/org.deeplinker.Deeplinker1.xml")
            #expect(xml.contains("<property name=\"Version\" type=\"s\" access=\"read\"/>"))
            let bash = try TestFiles.read(prefix + "/share/bash-completion/completions/deeplinker")
            #expect(bash.contains("status") && bash.contains("reload") && bash.contains("complete"))
            #expect(try TestFiles.read(prefix + "/share/zsh/site-functions/_deeplinker").hasPrefix("#compdef deeplinker"))
            #expect(try TestFiles.read(prefix + "/share/fish/vendor_completions.d/deeplinkerd.fish").contains("log-level"))
            let man = try TestFiles.read(prefix + "/share/man/man1/deeplinkerd.1")
            #expect(man.hasPrefix(".TH DEEPLINKERD 1"))
            #expect(man.contains("--log-level"))
            #expect(first.stdout.contains("systemctl --user daemon-reload"))
            #expect(first.stdout.contains("systemctl --user enable --now deeplinkerd"))

            let before = try FileManager.default.attributesOfItem(atPath: prefix + "/bin/deeplinkerd")[.size] as? Int
            let second = try await Self.install(["--prefix", prefix], home: home)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(Self.tree(prefix) == files.map { String($0.dropFirst(prefix.count + 1)) }.sorted())
            #expect(try FileManager.default.attributesOfItem(atPath: prefix + "/bin/deeplinkerd")[.size] as? Int == before)
        }
    }

    @Test("the default prefix ~/.local puts the unit where the user manager looks: share/systemd/user")
    func defaultPrefixUnitDirectory() async throws {
        try await TemporaryDirectory.with(prefix: "deeplinker-install") { directory in
            let home = directory.path
            let result = try await Self.install([], home: home)
            #expect(result.status == 0, "\(result.stderr)")
            let files = Self.installedFiles(prefix: home + "/.local", unitDirectory: "share/systemd/user")
            for file in files { #expect(FileManager.default.fileExists(atPath: file), "missing \(file)") }
            #expect(!FileManager.default.fileExists(atPath: home + "/.local/lib"))
            #expect(Self.tree(home) == files.map { String($0.dropFirst(home.count + 1)) }.sorted())
        }
    }

    @Test("the installed unit: systemd-analyze verify says nothing, security --offline rates it 2.0 or lower")
    func installedUnitVerifiesAndScores() async throws {
        try await Self.withInstall { home, prefix in
            let unit = prefix + "/lib/systemd/user/deeplinkerd.service"
            let (score, line) = try await Self.verifiedExposure(of: unit, home: home)
            #expect(score <= 2.0, "\(line)")
            for directive in ["Type=dbus", "BusName=org.deeplinker.Deeplinker1", "Restart=on-failure", "WatchdogSec=", "Slice=session.slice"] {
                #expect(try TestFiles.read(unit).contains("\n" + directive), "unit lacks \(directive)")
            }
            // The daemon keeps its database in $XDG_STATE_HOME/deeplinker, not in a StateDirectory= under ~/.config.
            #expect(try !TestFiles.read(unit).contains("\nStateDirectory="))
        }
    }

    @Test("the installed focus unit: absolute paths, tied to the graphical session, verify says nothing, exposure 1.5 or lower")
    func installedFocusUnitVerifiesAndScores() async throws {
        try await Self.withInstall { home, prefix in
            let unit = prefix + "/lib/systemd/user/deeplinker-focus.service"
            let text = try TestFiles.read(unit)
            #expect(text.contains("\nExecStart=\(prefix)/bin/deeplinker focus-watch\n") && !text.contains("@bindir@"))
            for directive in ["PartOf=graphical-session.target", "After=graphical-session.target", "WantedBy=graphical-session.target", "Restart=on-failure"] {
                #expect(text.contains("\n" + directive + "\n"), "unit lacks \(directive)")
            }
            let (score, line) = try await Self.verifiedExposure(of: unit, home: home)
            // 1.4 measured here; what is relaxed (PrivateTmp=, PrivateNetwork=) is explained in the unit.
            #expect(score <= 1.5, "\(line)")
        }
    }

    @Test("a dbus-daemon whose service directory is the installed one starts the installed daemon on the first call")
    func installedServiceActivates() async throws {
        try await Self.withInstall { home, prefix in
            let bus = try PrivateBus(serviceDirectories: [prefix + "/share/dbus-1/services"])
            defer { bus.stop() }
            let client = try DBusConnection(address: bus.address)
            defer { client.close() }
            // The activated daemon's environment: a state and config home of its own.
            let environment: [String: String] = ["XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_DIRS": home + "/data"]
            _ = try await client.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "UpdateActivationEnvironment", arguments: [.stringDictionary(environment)])
            #expect(try await client.nameOwner(DeeplinkerNames.busName) == nil)
            let proxy = DeeplinkerProxy(connection: client, timeout: .seconds(20))
            let properties = try await proxy.properties()
            #expect(properties.version == DeeplinkerVersion.current)
            #expect(properties.stateDirectory == home + "/state/deeplinker")
            let owner = try #require(try await client.nameOwner(DeeplinkerNames.busName))
            let pid = try #require(try await proxy.processID(of: owner))
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
            #expect(executable == prefix + "/bin/deeplinkerd")
            kill(pid_t(pid), SIGTERM)
        }
    }

    @Test("uninstall removes every installed file and nothing else; twice is harmless")
    func uninstallRemovesExactlyTheFiles() async throws {
        try await Self.withInstall { home, prefix in
            // Files of others in the same folders stay.
            let others = [prefix + "/bin/other-tool", prefix + "/share/man/man1/other.1", prefix + "/lib/systemd/user/other.service",
                          prefix + "/share/dbus-1/services/org.example.Other.service"]
            for file in others { try "keep\n".write(toFile: file, atomically: true, encoding: .utf8) }
            let result = try await Self.install(["--uninstall", "--prefix", prefix], home: home)
            #expect(result.status == 0, "\(result.stderr)")
            for file in Self.installedFiles(prefix: prefix, unitDirectory: "lib/systemd/user") {
                #expect(!FileManager.default.fileExists(atPath: file), "left \(file)")
                #expect(result.stdout.contains("removed \(file)"))
            }
            #expect(Self.tree(prefix) == others.map { String($0.dropFirst(prefix.count + 1)) }.sorted())
            let again = try await Self.install(["--uninstall", "--prefix", prefix], home: home)
            #expect(again.status == 0)
            #expect(!again.stdout.contains("removed "))
            #expect(Self.tree(prefix) == others.map { String($0.dropFirst(prefix.count + 1)) }.sorted())
        }
    }

    /// The section names of an ELF file (`readelf -SW`).
    static func sections(_ file: String) async throws -> [String] {
        let listed = try await TestProcess.run("/usr/bin/readelf", ["-SW", file])
        try #require(listed.status == 0, "readelf \(file): \(listed.output)")
        return listed.stdout.split(separator: "\n").compactMap { line in
            guard let close = line.firstIndex(of: "]") else { return nil }
            return line[line.index(after: close)...].split(separator: " ").first.map(String.init)
        }
    }

    static func size(_ file: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
    }

    @Test("the binaries are installed stripped (no debug info, no symbol table), together at most 100 MiB, and still run")
    func binariesAreStripped() async throws {
        try await Self.withInstall { home, prefix in
            var total = 0
            for binary in ["deeplinkerd", "deeplinker"] {
                let installed = prefix + "/bin/" + binary
                let sections = try await Self.sections(installed)
                #expect(sections.contains(".text"), "\(sections)")
                #expect(!sections.contains(where: { $0.hasPrefix(".debug_") }), "\(binary): \(sections)")
                #expect(!sections.contains(".symtab"), "\(binary): \(sections)")
                #expect(!sections.contains(".gnu_debuglink"), "\(binary): \(sections)")
                // The build it came from had debug info: stripping is what made the difference.
                #expect(try await Self.sections(Self.buildDirectory + "/" + binary).contains(".debug_info"))
                #expect(try Self.size(installed) < Self.size(Self.buildDirectory + "/" + binary))
                total += try Self.size(installed)
                let version = try await TestProcess.run(installed, ["--version"], environment: Self.environment(home: home))
                #expect(version.stdout == DeeplinkerVersion.current + "\n")
            }
            #expect(total <= 100 << 20, "the two installed binaries take \(total) bytes")
            #expect(!FileManager.default.fileExists(atPath: prefix + "/bin/.debug"))
        }
    }

    @Test("--keep-debug puts the debug info beside the stripped binaries, named in their .gnu_debuglink; a plain install and uninstall remove it")
    func keepDebug() async throws {
        try await TemporaryDirectory.with(prefix: "deeplinker-install") { directory in
            let home = directory.path
            let prefix = home + "/prefix"
            let kept = try await Self.install(["--prefix", prefix, "--keep-debug"], home: home)
            #expect(kept.status == 0, "\(kept.stderr)")
            let files = Self.installedFiles(prefix: prefix, unitDirectory: "lib/systemd/user")
                + ["bin/.debug/deeplinkerd.debug", "bin/.debug/deeplinker.debug"].map { prefix + "/" + $0 }
            #expect(Self.tree(prefix) == files.map { String($0.dropFirst(prefix.count + 1)) }.sorted())
            for binary in ["deeplinkerd", "deeplinker"] {
                let installed = prefix + "/bin/" + binary
                let debug = prefix + "/bin/.debug/" + binary + ".debug"
                #expect(kept.stdout.contains("installed \(debug)"))
                let sections = try await Self.sections(installed)
                #expect(!sections.contains(where: { $0.hasPrefix(".debug_") }), "\(binary): \(sections)")
                #expect(sections.contains(".gnu_debuglink"), "\(sections)")
                let link = try await TestProcess.run("/usr/bin/readelf", ["--string-dump=.gnu_debuglink", installed])
                #expect(link.stdout.contains(binary + ".debug"), "\(link.output)")
                #expect(try await Self.sections(debug).contains(".debug_info"))
                let version = try await TestProcess.run(installed, ["--version"], environment: Self.environment(home: home))
                #expect(version.stdout == DeeplinkerVersion.current + "\n")
            }

            // Installed again without it: the debug files (which no longer match) go.
            let plain = try await Self.install(["--prefix", prefix], home: home)
            #expect(plain.status == 0, "\(plain.stderr)")
            #expect(plain.stdout.contains("removed \(prefix)/bin/.debug/deeplinkerd.debug"))
            #expect(Self.tree(prefix) == Self.installedFiles(prefix: prefix, unitDirectory: "lib/systemd/user")
                .map { String($0.dropFirst(prefix.count + 1)) }.sorted())

            // And --uninstall takes them with the rest.
            #expect(try await Self.install(["--prefix", prefix, "--keep-debug"], home: home).status == 0)
            let removed = try await Self.install(["--uninstall", "--prefix", prefix], home: home)
            #expect(removed.status == 0)
            #expect(removed.stdout.contains("removed \(prefix)/bin/.debug/deeplinker.debug"))
            #expect(Self.tree(prefix).isEmpty)
        }
    }

    @Test("a staged install (--destdir, as scripts/package makes) puts the files under the stage and names only the prefix; /usr gets zsh's vendor folder")
    func stagedInstallNamesThePrefix() async throws {
        try await TemporaryDirectory.with(prefix: "deeplinker-install") { directory in
            let stage = directory.path + "/stage"
            let result = try await Self.install(["--prefix", "/usr", "--destdir", stage], home: directory.path)
            #expect(result.status == 0, "\(result.stderr)")
            let expected = Self.installedFiles(prefix: "/usr", unitDirectory: "lib/systemd/user")
                .map { $0.replacing("/share/zsh/site-functions/", with: "/share/zsh/vendor-completions/") }
            #expect(Self.tree(stage) == expected.map { String($0.dropFirst()) }.sorted())
            let unit = try TestFiles.read(stage + "/usr/lib/systemd/user/deeplinkerd.service")
            #expect(unit.contains("\nExecStart=/usr/bin/deeplinkerd\n"))
            #expect(try TestFiles.read(stage + "/usr/lib/systemd/user/deeplinker-focus.service").contains("\nExecStart=/usr/bin/deeplinker focus-watch\n"))
            #expect(try TestFiles.read(stage + "/usr/share/dbus-1/services/org.deeplinker.Deeplinker1.service").contains("\nExec=/usr/bin/deeplinkerd\n"))
            // No file names the stage (a build path), and sourced completions carry no #! line.
            for file in Self.tree(stage) where !file.hasPrefix("usr/bin/") {
                #expect(!(try TestFiles.read(stage + "/" + file)).contains(directory.path), "\(file)")
            }
            #expect(!(try TestFiles.read(stage + "/usr/share/bash-completion/completions/deeplinker")).hasPrefix("#!"))
        }
    }
}
