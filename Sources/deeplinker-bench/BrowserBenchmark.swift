import DBusKit
import TaskThreads
import DeeplinkerProtocol
import Foundation
import Spawn

/// A click in a real browser (SPEC §10): headless Chromium with the extension, the native host
/// that `deeplinker install-browser` registers, the daemon in-process and a stand-in app. Measures
/// the time from a plain left click on a verified link to the route's arrival in the app (content
/// script → background → the session's one native host → `OpenURL` → `ActivateAction`), beside the same
/// link typed into the address bar (the browser loads it as a page). Both start just before the
/// WebDriver command and read CLOCK_MONOTONIC, in the driver and in the app.
enum BrowserBenchmark {
    static let page = "https://other.example/start"

    static func run(routeFile: String, options: BenchOptions, table: ResultTable) async throws {
        guard let repository = locateRepository() else {
            throw DBusError.failed("cannot find Browser/extension and Tests/Browser/browser-driver.py; run from the package root")
        }
        let deeplinker = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("deeplinker").path
        guard FileManager.default.isExecutableFile(atPath: deeplinker) else {
            throw DBusError.failed("no deeplinker binary beside deeplinker-bench (\(deeplinker)); build it")
        }
        let env = try await BenchEnvironment.start(routeFile: routeFile, stateRoot: options.stateRoot)
        var driver: Driver?
        do {
            for domain in ["bestrecipes.com", "*.bestrecipes.com"] {
                _ = try await env.client.call(
                    destination: BenchEnvironment.daemonName, path: BenchEnvironment.daemonPath, interface: BenchEnvironment.daemonInterface,
                    member: "SetDomainVerification", arguments: [.string(BenchRouteFile.appID), .string(domain), .string("verified"), .string("bench")])
            }
            let app = try StandInApp(address: env.bus.address)
            defer { app.close() }
            try await app.becomeActive()
            try await EngineBenchmark.waitUntilActive(env)

            let home = env.root.appendingPathComponent("browser-home").path
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home
            environment["XDG_CONFIG_HOME"] = home + "/config"
            environment["XDG_DATA_HOME"] = home + "/data"
            environment["DBUS_SESSION_BUS_ADDRESS"] = env.bus.address
            let install = try ChildProcess(
                executable: deeplinker, arguments: ["install-browser", "--browser", "chromium"], environment: environment,
                standardInput: .null, standardOutput: .null, standardError: .inherit)
            guard install.waitUntilExit() == .exited(0) else { throw DBusError.failed("deeplinker install-browser failed") }

            let count = options.browserClicks
            let warmup = 2
            let urls = (0..<(warmup + count)).map { "https://bestrecipes.com/recipe/\(1000 + $0)" }
            let started = try Driver(repository: repository, userDataDir: home + "/config/chromium", links: urls, environment: environment)
            driver = started
            try await started.command(["cmd": "ready", "domain": "bestrecipes.com"])
            try await started.command(["cmd": "get", "url": page])
            var clicks: [Double] = []
            for (index, url) in urls.enumerated() {
                app.probe.expect(url)
                let clicked = (try await started.command(["cmd": "click", "id": "l\(index)"])["clicked"] as? NSNumber)?.int64Value ?? 0
                let arrived = await app.probe.arrivalNanoseconds(of: url)
                if index >= warmup { clicks.append(Double(arrived - clicked) / 1_000) }
            }
            var typed: [Double] = []
            for (index, url) in urls.enumerated() {
                let answer = try await started.command(["cmd": "get", "url": url])
                let loaded = (answer["loaded"] as? NSNumber)?.int64Value ?? 0, start = (answer["started"] as? NSNumber)?.int64Value ?? 0
                if index >= warmup { typed.append(Double(loaded - start) / 1_000) }
            }
            let state = try await started.command(["cmd": "state"])
            let served = (state["requests"] as? [String] ?? []).filter { $0.hasPrefix("bestrecipes.com/recipe/") }.count
            let (click, load) = (Stats(microseconds: clicks), Stats(microseconds: typed))
            table.add(
                "click on a verified link → route in the app p50", Format.micros(click.p50), ratio: String(format: "%.2f× typed", click.p50 / load.p50),
                goal: "≤ 1.00× typed", verdict: Format.verdict(click.p50 <= load.p50))
            table.add("click on a verified link → route in the app p99", Format.micros(click.p99))
            table.add("the same link typed → page loaded in the browser p50", Format.micros(load.p50))
            table.add("the same link typed → page loaded in the browser p99", Format.micros(load.p99))
            table.note("\(count) clicks and \(count) typed loads (after \(warmup) of each unmeasured); the page server saw \(served) recipe requests (the typed ones only: every click went to the app)")
            print("  browser: click → app p50 \(Format.micros(click.p50)), typed → loaded p50 \(Format.micros(load.p50))")
        } catch {
            await driver?.quit()
            await env.stop()
            throw error
        }
        await driver?.quit()
        await env.stop()
    }

    /// The package root: the working directory or an ancestor of this executable holding the
    /// extension and the driver.
    static func locateRepository() -> String? {
        var candidates = [FileManager.default.currentDirectoryPath]
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(directory.path)
            directory = directory.deletingLastPathComponent()
        }
        return candidates.first {
            FileManager.default.fileExists(atPath: $0 + "/Browser/extension/manifest.json")
                && FileManager.default.fileExists(atPath: $0 + "/Tests/Browser/browser-driver.py")
        }
    }

    /// `Tests/Browser/browser-driver.py` in its own network namespace: one JSON command per
    /// line in, one JSON answer per line out (read on a thread of its own, not the pool's).
    final class Driver: @unchecked Sendable {
        private let process: ChildProcess
        private var buffer: [UInt8] = []

        init(repository: String, userDataDir: String, links: [String], environment: [String: String]) throws {
            let config: [String: Any] = [
                "browser": "chromium", "extension": repository + "/Browser/extension", "extension_id": BrowserExtensionNames.chromiumID,
                "user_data_dir": userDataDir,
                "links": links.enumerated().map { ["id": "l\($0.offset)", "href": $0.element] },
            ]
            let text = String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self)
            process = try ChildProcess(
                executable: repository + "/Tests/Browser/run-in-netns",
                arguments: ["/usr/bin/python3", repository + "/Tests/Browser/browser-driver.py", text], environment: environment,
                standardInput: .pipe, standardOutput: .pipe, standardError: .inherit)
            guard readLine() != nil else { throw DBusError.failed("the Chromium driver did not start") }
        }

        /// Sends a command and returns its answer; an `error` answer throws.
        @discardableResult
        func command(_ command: [String: String]) async throws -> [String: Any] {
            var line = try JSONSerialization.data(withJSONObject: command)
            line.append(UInt8(ascii: "\n"))
            let fd = process.standardInput!
            _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            let answer: String? = await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: self.readLine()) }
            }
            guard let answer, let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any] else {
                throw DBusError.failed("the Chromium driver ended during \(command)")
            }
            if let error = object["error"] as? String { throw DBusError.failed("\(command["cmd"] ?? ""): \(error)") }
            return object
        }

        private func readLine() -> String? {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    return line
                }
                let count = read(process.standardOutput!, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return nil }
                buffer += chunk[0..<count]
            }
        }

        func quit() async {
            _ = try? await command(["cmd": "quit"])
            close(process.standardInput!)
            if await process.exit(killingAfter: .seconds(30)) == nil { process.kill() }
        }
    }
}
