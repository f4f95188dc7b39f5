import DBusKit
import DeeplinkerCore
import DeeplinkerTestSupport
@testable import DeeplinkerDaemon
import Foundation
import SQLite
import Testing

/// A state database the daemon cannot use is set aside, not a reason to stop (SPEC §4): corrupt or
/// newer-schema files are renamed `<name>.corrupt-<UTC timestamp>` with their `-wal`/`-shm`, an error
/// line names both paths, and the daemon starts empty. An older schema is migrated in place.
@Suite("Faults: unusable database")
struct UnusableDatabaseTests {
    typealias S = StoreSamples
    static let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

    @Test("a garbage file as the database: the daemon starts, serves, logs both paths; the renamed files exist")
    func garbageDatabaseIsSetAsideByTheDaemon() async throws {
        let recipes = TestRouteFiles.recipes
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)], startDaemon: false) { f in
            let path = f.stateDir + "/" + SQLiteInvocationStore.fileName
            for suffix in ["", "-wal", "-shm"] {
                _ = FileManager.default.createFile(atPath: path + suffix, contents: Self.garbage + Data(suffix.utf8))
            }
            let log = CapturedLog()
            try await f.startDaemon(logger: log.logger())

            let reply = try await f.openURL(recipes, "bestrecipes://recipe/7")
            #expect(try await f.history(recipes).map(\.id) == [reply.id], "started empty, and serving")

            let errors = log.messages(at: .error)
            let line = try #require(errors.first { $0.contains(path) && $0.contains(".corrupt-") }, "logged: \(errors)")
            let renamed = try #require(Self.renamedPath(in: line, original: path))
            #expect(renamed.hasPrefix(path + ".corrupt-"))
            #expect(renamed.range(of: #"\.corrupt-\d{8}T\d{6}Z$"#, options: .regularExpression) != nil, "\(renamed)")
            for suffix in ["", "-wal", "-shm"] {
                #expect(FileManager.default.contents(atPath: renamed + suffix) == Self.garbage + Data(suffix.utf8), "kept: \(suffix)")
            }
        }
    }

    @Test("a database of a newer schema version is set aside, not opened")
    func newerSchemaIsSetAside() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending(SQLiteInvocationStore.fileName)
        do {
            let db = try SQLiteDatabase(path: path)
            try db.execute("CREATE TABLE future (x); PRAGMA user_version = \(SQLiteInvocationStore.schemaVersion + 1)")
            db.close()
        }
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let (store, quarantined) = try SQLiteInvocationStore.openSettingAsideUnusable(directory: directory.path, now: now)
        let set = try #require(quarantined)
        #expect(set.originalPath == path)
        #expect(set.renamedPath == path + ".corrupt-20260921T141320Z")
        #expect(set.reason.contains("schema version \(SQLiteInvocationStore.schemaVersion + 1)"))
        #expect(set.description.contains(path) && set.description.contains(set.renamedPath))
        let old = try SQLiteDatabase(path: set.renamedPath, mode: .readOnly)
        #expect(try old.tableExists("future"), "the newer database is kept intact")
        old.close()
        try await store.write([.invocation(S.invocation("fresh"))])
        #expect(try await store.history(appID: nil, limit: 0).map(\.id) == ["fresh"])
        try await store.close()
    }

    @Test("a healthy database is opened, never set aside")
    func healthyDatabaseIsKept() async throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try SQLiteInvocationStore(directory: directory.path)
            try await store.write([.invocation(S.invocation("kept"))])
            try await store.close()
        }
        let (store, quarantined) = try SQLiteInvocationStore.openSettingAsideUnusable(directory: directory.path)
        #expect(quarantined == nil)
        #expect(try await store.invocation(id: "kept") != nil)
        try await store.close()
    }

    @Test("today's schema (version 1, user_version 0) is migrated: its rows are there, user_version is set")
    func version1IsMigrated() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending(SQLiteInvocationStore.fileName)
        do {
            let db = try SQLiteDatabase(path: path)
            try db.transaction {
                try db.execute(Self.version1Schema)
                try db.execute("""
                    INSERT INTO invocation (id, app_id, source, status, detail, received_at, updated_at, target,
                        route_source, parameters, launch_kind, dedupe_key, platform_data, attempts, redelivery, revision)
                    VALUES ('old-1', 'com.bestrecipes.App', 'url', 'delivered', '', 10, 11, 'recipe.details', 'url',
                        '{"id":"1"}', NULL, 'url\u{1F}bestrecipes://recipe/1', '{}', 1, 0, 2),
                           ('old-2', 'com.bestrecipes.App', 'url', 'pending', '', 20, 20, 'recipe.details', 'url',
                        '{"id":"2"}', NULL, NULL, '{}', 0, 0, 0);
                    INSERT INTO app_state (app_id, state, owner, updated_at) VALUES ('com.bestrecipes.App', 'active', ':1.9', 5);
                    INSERT INTO shortcut (app_id, position, type) VALUES ('com.bestrecipes.App', 0, 'fav');
                    """)
            }
            db.close()
        }
        let (store, quarantined) = try SQLiteInvocationStore.openSettingAsideUnusable(directory: directory.path)
        #expect(quarantined == nil)
        #expect(try await store.history(appID: nil, limit: 0).map(\.id) == ["old-2", "old-1"])
        #expect(try await store.invocation(id: "old-1")?.route?.parameters == ["id": "1"])
        #expect(try await store.shortcuts(appID: "com.bestrecipes.App") == ["fav"])
        #expect(try await store.appStates().map(\.owner) == [":1.9"])
        let version = try store.writer.withLock { db in try db.integer("PRAGMA user_version") }
        #expect(version == Int64(SQLiteInvocationStore.schemaVersion))
        try await store.close()
    }

    /// The path the log line says the database was renamed to.
    static func renamedPath(in line: String, original: String) -> String? {
        guard let start = line.range(of: "renamed it to '") else { return nil }
        return line[start.upperBound...].split(separator: "'").first.map(String.init)
    }

    /// The schema shipped before versioning (migration `v1` as GRDB recorded it), verbatim.
    static let version1Schema = """
        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
        INSERT INTO grdb_migrations (identifier) VALUES ('v1');
        CREATE TABLE invocation (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            app_id TEXT NOT NULL,
            source TEXT NOT NULL,
            status TEXT NOT NULL,
            detail TEXT NOT NULL DEFAULT '',
            received_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            target TEXT,
            route_source TEXT,
            parameters TEXT,
            launch_kind TEXT,
            dedupe_key TEXT,
            platform_data TEXT NOT NULL DEFAULT '{}',
            attempts INTEGER NOT NULL DEFAULT 0,
            redelivery INTEGER NOT NULL DEFAULT 0,
            revision INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX invocation_by_time ON invocation(received_at, seq);
        CREATE INDEX invocation_by_app_time ON invocation(app_id, received_at, seq);
        CREATE INDEX invocation_open ON invocation(app_id) WHERE status IN ('pending', 'delivering');
        CREATE TABLE last_route (
            app_id TEXT PRIMARY KEY NOT NULL,
            invocation_id TEXT NOT NULL,
            target TEXT NOT NULL,
            parameters TEXT NOT NULL,
            source TEXT NOT NULL
        );
        CREATE TABLE app_state (
            app_id TEXT PRIMARY KEY NOT NULL,
            state TEXT NOT NULL,
            owner TEXT,
            updated_at INTEGER NOT NULL
        );
        CREATE TABLE shortcut (
            app_id TEXT NOT NULL,
            position INTEGER NOT NULL,
            type TEXT NOT NULL,
            PRIMARY KEY (app_id, position)
        );
        CREATE TABLE notification (
            id INTEGER PRIMARY KEY NOT NULL,
            app_id TEXT NOT NULL,
            payload TEXT NOT NULL,
            posted_at INTEGER NOT NULL
        );
        """
}
