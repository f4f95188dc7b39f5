import DBusKit
import DeeplinkerTestSupport
import Foundation
import Testing
import DeeplinkerCLI
import DeeplinkerClient

/// Every error kind has its documented exit status and a message naming the problem.
@Suite struct ExitCodeTests {
    let app = "com.bestrecipes.App"

    @Test func errorKindsHaveDistinctStatuses() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let cases: [([String], Int32, String)] = [
                (["open", "--app", "com.nobody.App", "bestrecipes://recipe/1"], 4, "UnknownApp"),
                (["open", "nobody://x/y"], 4, "NoApp"),
                (["open", "bestrecipes://admin/secret"], 5, "NoRoute"),
                (["shortcut", app, "com.bestrecipes.nothing"], 5, "UnknownShortcut"),
                (["open", "bestrecipes://recipe/abc"], 6, "InvalidParameter"),
                (["open", "bestrecipes://recipe/%2e%2e"], 6, "InvalidURL"),
                (["notify", app, "not json"], 6, "InvalidPayload"),
                (["launch", app, "--options", #"{"url": 5}"#], 6, "InvalidPayload"),
                (["activity", app, "https://bestrecipes.com/", "--type", "com.example.other"], 6, "Unsupported"),
                (["frobnicate"], 2, "Unexpected argument 'frobnicate'"),
                (["open"], 2, "give a URL"),
                (["history", "--limit", "many"], 2, "many"),
            ]
            for (arguments, status, text) in cases {
                let result = try await f.run(arguments, bus: status != 2)
                #expect(result.status == status, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(text), "\(arguments): \(result.stderr)")
            }
        }
    }

    @Test func storageFailedHasItsOwnStatus() {
        let error = DBusError(name: "org.deeplinker.Error.StorageFailed", message: "cannot write database '/s/deeplinker.sqlite'")
        #expect(ExitStatus.forDBusError(error) == .storageFailed)
        #expect(ExitStatus.storageFailed.rawValue == 10)
        #expect(ExitStatus.table.contains("10 the daemon could not store"))
    }

    @Test func accessDeniedForAnotherOwnersState() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let owner = try f.connect()
            defer { owner.close() }
            #expect(try await owner.requestName(app) == .primaryOwner)
            // SetAppState from a connection that does not own the name is refused.
            let proxy = try f.proxy()
            defer { proxy.connection.close() }
            await #expect(throws: DBusError.self) { try await proxy.setAppState(appID: app, state: "active") }
            do {
                try await proxy.setAppState(appID: app, state: "active")
            } catch let error as DBusError {
                #expect(error.deeplinkerErrorName == "AccessDenied")
                #expect(ExitStatus.forDBusError(error) == .accessDenied)
            }
        }
    }

    @Test func daemonNotRunningIsSaidPlainly() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { f in
            for arguments in [["open", "bestrecipes://recipe/1"], ["pending", app], ["apps"], ["history"]] {
                let result = try await f.run(arguments)
                #expect(result.status == 3, "\(arguments)")
                #expect(result.stderr.contains("the Deeplinker daemon is not running"), "\(result.stderr)")
            }
            let noBus = try await f.run(["apps", "--bus-address", "unix:path=/nonexistent/bus"], bus: false)
            #expect(noBus.status == 3)
            #expect(noBus.stderr.contains("not reachable"))
        }
    }
}
