// swift-tools-version:6.1
import PackageDescription

/// Layers, bottom up: `CDBus` (C shim, imported only by `DBusKit`) → `DBusKit` (generic D-Bus binding)
/// and `DeeplinkerCore` (pure routing and lifecycle logic, no I/O) → `DeeplinkerDaemon` (wires core to
/// bus and SQLite) → thin executables.
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
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // Starting programs with posix_spawn (no Foundation `Process`): daemon, CLI, bench, tests.
        .target(name: "CSpawn"),
        .target(name: "Spawn", dependencies: ["CSpawn", "TaskThreads"]),
        // Threads in place of libdispatch's workers, whose pool starts a 1 Hz monitor for good:
        // the global executor's jobs, sleeps and signals (issue 10, no wake-ups when idle).
        .target(name: "CTaskThreads"),
        .target(name: "TaskThreads", dependencies: ["CTaskThreads"]),
        .target(
            name: "DBusKit",
            dependencies: ["CDBus", "Spawn"]
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
                .product(name: "GRDB", package: "GRDB.swift"),
                // The C API under GRDB: `sqlite3_system_errno` names the errno behind an I/O error.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "DeeplinkerClient",
            dependencies: ["DBusKit", "DeeplinkerProtocol"]
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
        .target(
            name: "DeeplinkerCLI",
            dependencies: [
                "DBusKit",
                "DeeplinkerCore",
                "DeeplinkerClient",
                "DeeplinkerProtocol",
                "DeeplinkerRouteFiles",
                "Spawn",
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
                "DeeplinkerCore",
                "DeeplinkerDaemon",
                "DeeplinkerProtocol",
                "Spawn",
            ]
        ),
        .testTarget(name: "DBusKitTests", dependencies: ["DBusKit", "DeeplinkerTestSupport"]),
        .testTarget(name: "SpawnTests", dependencies: ["Spawn"]),
        .testTarget(name: "TaskThreadsTests", dependencies: ["TaskThreads"]),
        .testTarget(name: "DeeplinkerCoreTests", dependencies: ["DeeplinkerCore", "DeeplinkerProtocol", "DeeplinkerTestSupport"]),
        .testTarget(
            name: "DeeplinkerDaemonTests",
            dependencies: [
                "DeeplinkerDaemon", "DBusKit", "DeeplinkerCore", "DeeplinkerClient", "DeeplinkerProtocol", "DeeplinkerRouteFiles",
                "DeeplinkerTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "DeeplinkerCLITests",
            dependencies: ["DeeplinkerCLI", "DeeplinkerClient", "DeeplinkerDaemon", "DBusKit", "DeeplinkerCore", "DeeplinkerProtocol", "DeeplinkerTestSupport"]
        ),
        // The one set of helpers of every test target (Tests/Support): the scoped daemon fixture
        // `DaemonFixture.withDaemon`, the stand-in apps, `Recorder`, `TestProcess`, temporary
        // directories and files; every wait has a time-out, none is a fixed sleep.
        .target(
            name: "DeeplinkerTestSupport",
            dependencies: [
                "DBusKit", "DeeplinkerClient", "DeeplinkerCore", "DeeplinkerDaemon", "DeeplinkerProtocol", "Spawn",
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
