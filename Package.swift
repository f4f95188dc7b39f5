// swift-tools-version:6.1
import PackageDescription

/// Layers, bottom up; a module imports only modules of the layers below it:
/// 1. C shims, each imported by one module: `CTaskThreads` (by `TaskThreads`), `CSpawn` (`Spawn`),
///    `CDBus` (`DBusKit`), `CSQLite` (`SQLite`), `CMallocTuning` (`deeplinkerd`).
/// 2. `TaskThreads` (the package's threads and locks: `NamedThread`, `ThreadCondition`,
///    `LockedValue`, the job threads of the global executor, timers, signals) → `Spawn`
///    (posix_spawn) → `DBusKit` (generic D-Bus binding); `SQLite` (the SQLite binding).
/// 3. `DeeplinkerProtocol` (the contract's names, no dependencies) → `DeeplinkerCore` (pure routing
///    and lifecycle logic, no I/O) → `DeeplinkerRouteFiles` (route files on disk).
/// 4. `DeeplinkerDaemon` (wires the core to the bus and SQLite) and `DeeplinkerClient` (the apps'
///    library) → `DeeplinkerCLI`.
/// 5. Thin executables: `deeplinkerd`, `deeplinker`, `deeplinker-bench`, the `fuzz-*` targets.
/// Tests: `DeeplinkerTestSupport` (Tests/Support) and a test target per module.
let package = Package(
    name: "Deeplinker",
    products: [
        .executable(name: "deeplinkerd", targets: ["deeplinkerd"]),
        .executable(name: "deeplinker", targets: ["deeplinker"]),
        .executable(name: "deeplinker-bench", targets: ["deeplinker-bench"]),
        .library(name: "DeeplinkerClient", targets: ["DeeplinkerClient"]),
        .library(name: "DBusKit", targets: ["DBusKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // XCB for the X11 focus backend (C shim, imported only by `FocusWatch`).
        .systemLibrary(name: "CXCB", pkgConfig: "xcb", providers: [.apt(["libxcb1-dev"])]),
        // Starting programs with posix_spawn (no Foundation `Process`): daemon, CLI, bench, tests.
        .target(name: "CSpawn"),
        .target(name: "Spawn", dependencies: ["CSpawn", "TaskThreads"]),
        // Threads in place of libdispatch's workers, whose pool starts a 1 Hz monitor for good:
        // the global executor's jobs, sleeps and signals (no wake-ups when idle, docs/architecture.md).
        .target(name: "CTaskThreads"),
        .target(name: "TaskThreads", dependencies: ["CTaskThreads"]),
        // SQLite through its C API (libsqlite3-dev), imported only by `SQLite`: the project's own
        // small binding (as Chromium's `sql::Database`): one connection per `SQLiteDatabase`, cached
        // prepared statements, explicit transactions, errors as values; no Foundation.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        .target(
            name: "DBusKit",
            dependencies: ["CDBus", "Spawn", "TaskThreads"]
        ),
        // The contract's names (SPEC §1, §3): bus names, object paths, error names, platform-data
        // keys, lifecycle signals, de-duplication keys. No dependencies; everyone else imports it.
        .target(name: "DeeplinkerProtocol"),
        .target(
            name: "DeeplinkerCore",
            dependencies: ["DeeplinkerProtocol"]
        ),
        // Route files on disk (SPEC §5): the search path and the one loader of daemon and CLI.
        .target(name: "DeeplinkerRouteFiles", dependencies: ["DeeplinkerCore"]),
        .target(
            name: "DeeplinkerDaemon",
            dependencies: [
                "DBusKit",
                "DeeplinkerCore",
                "DeeplinkerProtocol",
                "DeeplinkerRouteFiles",
                "Spawn",
                "TaskThreads",
                "SQLite",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "DeeplinkerClient",
            dependencies: ["DBusKit", "DeeplinkerProtocol", "TaskThreads"]
        ),
        // glibc's mallopt for deeplinkerd (Sources/deeplinkerd/MallocTuning.swift says why).
        .target(name: "CMallocTuning"),
        .executableTarget(
            name: "deeplinkerd",
            dependencies: [
                "CMallocTuning",
                "DeeplinkerDaemon",
                "TaskThreads",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // `deeplinker focus-watch`: the desktop's focus (X11, sway) mapped to app ids, reported with
        // `SetFocusedApp`. The daemon never links it: it stays free of any display connection.
        .target(name: "FocusWatch", dependencies: ["CXCB", "DBusKit", "DeeplinkerCore", "DeeplinkerProtocol", "TaskThreads"]),
        // `deeplinker verify`: fetches domain association files over HTTPS with libcurl, loaded with
        // dlopen only when it fetches (C shim imported only by `DomainVerification`; needs curl.h
        // from libcurl4-openssl-dev to build). The daemon never links it: it stays off the network.
        .target(name: "CCurl"),
        .target(name: "DomainVerification", dependencies: ["CCurl", "DeeplinkerCore"]),
        .target(
            name: "DeeplinkerCLI",
            dependencies: [
                "DBusKit",
                "DomainVerification",
                "FocusWatch",
                "DeeplinkerCore",
                "DeeplinkerClient",
                "DeeplinkerProtocol",
                "DeeplinkerRouteFiles",
                "Spawn",
                "TaskThreads",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "deeplinker",
            dependencies: ["DeeplinkerCLI"]
        ),
        .executableTarget(
            name: "deeplinker-bench",
            dependencies: [
                "DBusKit",
                "FocusWatch",
                "DeeplinkerCore",
                "DeeplinkerDaemon",
                "DeeplinkerProtocol",
                "Spawn",
                "TaskThreads",
            ]
        ),
        .testTarget(name: "DBusKitTests", dependencies: ["DBusKit", "DeeplinkerTestSupport"]),
        .testTarget(name: "SpawnTests", dependencies: ["Spawn"]),
        .testTarget(name: "TaskThreadsTests", dependencies: ["TaskThreads"]),
        // The benchmark's statistics (the executable target, imported @testable).
        .testTarget(name: "DeeplinkerBenchTests", dependencies: ["deeplinker-bench"]),
        // deeplinkerd's own code: its two argument parsers agree, malloc settings glibc refuses.
        .testTarget(
            name: "deeplinkerdTests",
            dependencies: ["deeplinkerd", "CMallocTuning", "DeeplinkerDaemon", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "DeeplinkerCoreTests", dependencies: ["DeeplinkerCore", "DeeplinkerProtocol", "DeeplinkerTestSupport"]),
        .testTarget(
            name: "DeeplinkerDaemonTests",
            dependencies: [
                "DeeplinkerDaemon", "DBusKit", "DeeplinkerCore", "DeeplinkerClient", "DeeplinkerProtocol", "DeeplinkerRouteFiles",
                "DeeplinkerTestSupport", "SQLite", "TaskThreads",
            ],
            // A real schema-v4 state directory, read by path (`V4UpgradeTests`).
            exclude: ["Persistence/Fixtures"]
        ),
        .testTarget(
            name: "DeeplinkerCLITests",
            dependencies: [
                "DeeplinkerCLI", "DeeplinkerClient", "DeeplinkerDaemon", "DBusKit", "DeeplinkerCore", "DeeplinkerProtocol", "DeeplinkerTestSupport",
                "DomainVerification", "FocusWatch",
            ]
        ),
        // The one set of helpers of every test target (Tests/Support): the scoped daemon fixture
        // `DaemonFixture.withDaemon`, the stand-in apps, `Recorder`, `TestProcess`, temporary
        // directories and files; every wait has a time-out, none is a fixed sleep.
        .target(
            name: "DeeplinkerTestSupport",
            dependencies: [
                "DBusKit", "DeeplinkerClient", "DeeplinkerCore", "DeeplinkerDaemon", "DeeplinkerProtocol", "Spawn", "TaskThreads",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Support"),
        // libFuzzer targets (scripts/fuzz.sh NAME SECONDS; build with --sanitize=fuzzer).
        .executableTarget(name: "fuzz-url-matching", dependencies: ["DeeplinkerCore"], path: "Sources/Fuzz/fuzz-url-matching"),
        .executableTarget(name: "fuzz-payload-mapping", dependencies: ["DeeplinkerCore"], path: "Sources/Fuzz/fuzz-payload-mapping"),
        .executableTarget(name: "fuzz-route-file", dependencies: ["DeeplinkerCore"], path: "Sources/Fuzz/fuzz-route-file"),
        .executableTarget(name: "fuzz-native-host", dependencies: ["DeeplinkerCore"], path: "Sources/Fuzz/fuzz-native-host"),
        .executableTarget(
            name: "fuzz-dbus-surface",
            dependencies: ["DBusKit", "DeeplinkerDaemon", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Fuzz/fuzz-dbus-surface"),
    ]
)
