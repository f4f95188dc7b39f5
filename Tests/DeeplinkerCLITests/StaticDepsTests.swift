import DBusKit
import DeeplinkerTestSupport
import Foundation
import Testing

/// `scripts/static-deps/prepare`, which `scripts/install` uses to link libdbus and SQLite from their
/// static archives: a real libdbus client linked through its `dbus-1.pc` needs no libdbus,
/// libsystemd, libsqlite3 or libstdc++ shared library, and still talks to a real bus.
@Suite("scripts/static-deps")
struct StaticDepsTests {
    static let prepare = TestFiles.repository("scripts/static-deps/prepare")

    /// Asks the bus for its id (a round trip) and prints it.
    static let client = """
        #include <dbus/dbus.h>
        #include <sqlite3.h>
        #include <stdio.h>
        void *_Znwm(unsigned long); /* operator new: one libstdc++ symbol, as the Swift runtime uses */
        int main(void) {
          if (!_Znwm(8)) return 1;
          DBusError error; dbus_error_init(&error);
          DBusConnection *bus = dbus_bus_get_private(DBUS_BUS_SESSION, &error);
          if (!bus) { fprintf(stderr, "%s\\n", error.message); return 1; }
          char *id = dbus_bus_get_id(bus, &error);
          if (!id) { fprintf(stderr, "%s\\n", error.message); return 1; }
          printf("bus %s sqlite %s\\n", id, sqlite3_libversion());
          return 0;
        }
        """

    @Test func aClientLinkedThroughItNeedsNoLibsystemdAndReachesTheBus() async throws {
        try await TemporaryDirectory.with(prefix: "deeplinker-static-deps") { directory in
            let deps = directory.appending("deps")
            let prepared = try await TestProcess.run("/bin/bash", [Self.prepare, deps])
            try #require(prepared.status == 0, "prepare: \(prepared.output)")
            #expect(prepared.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == deps)

            var environment = ProcessInfo.processInfo.environment
            environment["PKG_CONFIG_PATH"] = deps
            let flags = try await TestProcess.run("/usr/bin/pkg-config", ["--cflags", "--libs", "dbus-1"], environment: environment)
            #expect(flags.stdout.contains("-L\(deps) -ldbus-1 -ldeeplinker-sd-stubs"))
            // SwiftPM puts a system library's -L first: sqlite3's must name DIR too.
            let sqlite = try await TestProcess.run("/usr/bin/pkg-config", ["--libs-only-L", "sqlite3"], environment: environment)
            #expect(sqlite.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "-L\(deps)")

            let source = directory.appending("client.c")
            try Self.client.write(toFile: source, atomically: true, encoding: .utf8)
            let binary = directory.appending("client")
            let arguments = flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
            let compiled = try await TestProcess.run(
                "/usr/bin/env", ["cc", source, "-o", binary] + arguments + ["-L\(deps)", "-lsqlite3", "-lstdc++", "-lm", "-lpthread", "-ldl"],
                environment: environment)
            try #require(compiled.status == 0, "cc: \(compiled.output)")

            let needed = try await TestProcess.run("/usr/bin/readelf", ["-d", binary]).stdout
            #expect(!needed.contains("libdbus-1.so"))
            #expect(!needed.contains("libsystemd"))
            #expect(!needed.contains("libsqlite3.so"))
            // -lstdc++ finds the archive in DIR first: the Swift runtime's C++ is linked in.
            #expect(FileManager.default.fileExists(atPath: deps + "/libstdc++.a"))
            #expect(!needed.contains("libstdc++.so"), "\(needed)")

            let bus = try PrivateBus()
            defer { bus.stop() }
            var clientEnvironment = ProcessInfo.processInfo.environment
            clientEnvironment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            let ran = try await TestProcess.run(binary, [], environment: clientEnvironment)
            #expect(ran.status == 0, "client: \(ran.output)")
            #expect(ran.stdout.hasPrefix("bus "))
        }
    }
}
