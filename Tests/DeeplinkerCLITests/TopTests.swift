import DeeplinkerCLI
import DeeplinkerClient
import DeeplinkerTestSupport
import Foundation
import Testing

/// `deeplinker top` in a real terminal (tmux) against a real daemon: the apps appear, an
/// invocation appears as it happens, keys work, a resize redraws, and the terminal is restored
/// on q, SIGINT and the daemon going away; off a terminal it prints plain lines.
@Suite struct TopTests {
    let app = "com.bestrecipes.App"

    /// The shell line tmux runs: top, then its exit status and the terminal's modes as the shell
    /// sees them afterwards (icanon and echo back on).
    func command(_ f: DaemonFixture) -> String {
        let top = [TestProcess.product("deeplinker"), "top", "--bus-address", f.bus.address, "--config-dir", f.configDir]
            .map { "'\($0)'" }.joined(separator: " ")
        // tmux drops the first line of the normal screen when an alternate screen closes in a
        // respawned pane (a plain `printf '\033[?1049h...\033[?1049l'` does it too): a blank line
        // goes there first.
        return "echo; \(top); echo exit=$?; stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo"
    }

    /// The invocation rows of a screen (below the rule).
    func invocationRows(_ screen: [String]) -> [String] {
        guard let rule = screen.firstIndex(where: { $0.hasPrefix("────") }) else { return [] }
        return Array(screen[(rule + 2)...]).filter { !$0.isEmpty && !$0.hasPrefix("q quit") }
    }

    /// The terminal after top ended: the normal screen, line mode and echo back.
    func expectRestored(_ tmux: TmuxSession, exit status: Int32) async throws {
        try await tmux.waitForText("exit=\(status)")
        let screen = try await tmux.waitForScreen("the stty lines") { $0.contains("icanon") && $0.contains("echo") }
        #expect(!screen.contains("-icanon") && !screen.contains("-echo"))
        #expect(try await tmux.format("#{alternate_on}") == "0")
    }

    @Test func showsTheAppsAndAnInvocationAsItHappensThenQuits() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            try await TmuxSession.with(command: command(f)) { tmux in
                let first = try await tmux.waitForText("com.example.Apartments")
                #expect(first.contains { $0.hasPrefix(app) && $0.contains("not-running") && $0.contains("signal") })
                #expect(try await tmux.format("#{alternate_on}") == "1")

                let reply = try await f.openURL(app, "bestrecipes://recipe/12?country=FR")
                let screen = try await tmux.waitForScreen("the invocation's row") { screen in
                    invocationRows(screen).contains { $0.contains(app) && $0.contains("url") && $0.contains("recipe") && $0.contains("pending") }
                }
                #expect(screen.contains { $0.hasPrefix(app) && $0.contains("recipe") }, "the app's pending target")
                #expect(!screen.joined().contains("FR"), "no parameter values")
                #expect(!reply.id.isEmpty)

                try await tmux.sendKeys(["q"])
                try await expectRestored(tmux, exit: 0)
            }
        }
    }

    @Test func filterScrollAndResize() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            try await TmuxSession.with(command: command(f), width: 120, height: 30) { tmux in
                try await tmux.waitForText("com.example.Apartments")
                try await tmux.waitForText("120x30")

                try await tmux.resize(width: 72, height: 16)
                let resized = try await tmux.waitForText("72x16")
                #expect(resized.contains(String(repeating: "─", count: 72)), "the rule spans the new width")
                #expect(resized.allSatisfy { $0.count <= 72 })

                try await tmux.sendKeys(["/"])
                try await tmux.waitForText("filter by app:")
                try await tmux.sendKeys(["apart"], literal: true)
                try await tmux.sendKeys(["Enter"])
                let filtered = try await tmux.waitForText("filter: apart")
                #expect(!filtered.contains { $0.hasPrefix(app) })
                #expect(filtered.contains { $0.hasPrefix("com.example.Apartments") })
                try await tmux.sendKeys(["Up", "Down"])

                try await tmux.sendKeys(["C-c"])
                try await expectRestored(tmux, exit: 130)
            }
        }
    }

    @Test func theDaemonGoingAwayRestoresTheTerminal() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            try await TmuxSession.with(command: command(f)) { tmux in
                try await tmux.waitForText("com.example.Apartments")
                try await f.stopDaemon()
                try await expectRestored(tmux, exit: 3)
                try await tmux.waitForText("deeplinker: the daemon went away")
            }
        }
    }

    @Test func offATerminalItPrintsPlainLines() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let top = try f.spawn(["top", "--config-dir", f.configDir])
            try await top.waitForLine(containing: "app \(app) state=not-running ready=signal")
            try await top.waitForLine(containing: "app com.example.Apartments state=not-running ready=signal")
            let reply = try await f.openURL(app, "bestrecipes://recipe/12")
            let line = try await top.waitForLine(containing: reply.id)
            #expect(line.hasSuffix("\(app)  \(reply.id)  pending"))
            #expect(!top.stdout.contains("\u{1B}"), "no escape sequences off a terminal")

            let json = try f.spawn(["top", "--json", "--config-dir", f.configDir])
            try await json.waitForLine(containing: #"{"app_id":"com.bestrecipes.App","pending_target":"recipe","ready":"signal","state":"not-running"}"#)
            let second = try await f.openURL("com.example.Apartments", "deeplinkTutorial://messages/1")
            try await json.waitForLine(containing: #"{"app_id":"com.example.Apartments","detail":"","invocation_id":"\#(second.id)","status":"pending"}"#)
        }
    }
}

/// The view as data: fixtures in, lines out.
@Suite struct TopModelTests {
    func model() -> TopModel {
        var model = TopModel()
        model.setApps(["b.App", "a.App"], readiness: ["a.App": "focus"])
        model.setHistory([
            HistoryEntry(invocationID: "i2", appID: "b.App", source: "url", target: "recipe", status: "pending", receivedAtMicroseconds: 2_000_000),
            HistoryEntry(invocationID: "i1", appID: "a.App", source: "shortcut", target: "home", status: "delivered", receivedAtMicroseconds: 1_000_000),
        ])
        model.update("b.App") { $0.state = "inactive"; $0.pendingTarget = "recipe"; $0.pendingSince = 2_000_000 }
        return model
    }

    @Test func changesCountAttemptsAndKeepTheLastError() {
        var m = model()
        #expect(m.apps.map(\.appID) == ["a.App", "b.App"])
        #expect(m.apps[0].readiness == "focus" && m.apps[1].readiness == "signal")
        m.apply(InvocationChange(appID: "b.App", invocationID: "i2", status: "delivering", detail: ""), now: 3_000_000)
        m.apply(InvocationChange(appID: "b.App", invocationID: "i2", status: "pending", detail: "delivery timed out"), now: 3_000_000)
        m.apply(InvocationChange(appID: "b.App", invocationID: "i2", status: "delivering", detail: ""), now: 3_000_000)
        #expect(m.apps[1].attempts == 2)
        #expect(m.apps[1].lastError == "delivery timed out")
        m.apply(InvocationChange(appID: "b.App", invocationID: "i2", status: "failed", detail: "refused (3 attempts)"), now: 4_000_000)
        #expect(m.apps[1].attempts == 0 && m.apps[1].lastError == "failed: refused (3 attempts)")
        #expect(m.invocations[0].status == "failed")
        m.apply(InvocationChange(appID: "a.App", invocationID: "i3", status: "pending", detail: ""), now: 5_000_000)
        #expect(m.invocations.map(\.invocationID) == ["i3", "i2", "i1"])
    }

    @Test func aSnapshotSetsStatesAndPendingTargets() {
        var m = model()
        m.apply(InvocationChange(appID: "b.App", invocationID: "i2", status: "delivering", detail: ""), now: 3_000_000)
        m.apply(TopSnapshot(
            apps: ["a.App", "b.App", "c.App"], states: ["a.App": "active", "b.App": "inactive", "c.App": "not-running"],
            pending: ["b.App": .init(target: "recipe", receivedAt: 2_000_000)], history: []), readiness: ["c.App": "name"])
        #expect(m.apps.map(\.appID) == ["a.App", "b.App", "c.App"])
        #expect(m.apps.map(\.state) == ["active", "inactive", "not-running"])
        #expect(m.apps.map(\.readiness) == ["signal", "signal", "name"])
        #expect(m.apps[1].pendingTarget == "recipe" && m.apps[1].attempts == 1, "attempts stay while the route is pending")
        m.apply(TopSnapshot(apps: ["b.App"], states: ["b.App": "active"], pending: [:], history: []), readiness: [:])
        #expect(m.apps.map(\.appID) == ["b.App"] && m.apps[0].attempts == 0 && m.apps[0].pendingTarget == nil)
    }

    @Test func aRouteWaitingOnAnAppThatDidNotStartShowsWhyFromTheSnapshot() {
        var m = model()
        let detail = "waiting on an app that did not start: it was started by its launch command (/bin/false), and its process exited with status 1"
        m.apply(TopSnapshot(
            apps: ["a.App"], states: ["a.App": "not-running"],
            pending: ["a.App": .init(target: "recipe", receivedAt: 2_000_000, detail: detail)], history: []), readiness: [:])
        #expect(m.apps[0].pendingTarget == "recipe")
        #expect(m.apps[0].lastError == detail, "top started after the failure still says it")
    }

    @Test func keysFilterAndScroll() {
        var m = model()
        let stays = m.handle(.character("/"))
        #expect(stays)
        for c in "B.a" { _ = m.handle(.character(c)) }
        _ = m.handle(.enter)
        #expect(m.filter == "B.a" && !m.editingFilter)
        #expect(m.visibleApps.map(\.appID) == ["b.App"])
        #expect(m.visibleInvocations.map(\.invocationID) == ["i2"])
        _ = m.handle(.escape)
        #expect(m.filter.isEmpty)
        _ = m.handle(.down)
        #expect(m.scroll == 1)
        _ = m.handle(.down)
        #expect(m.scroll == 1, "not past the last row")
        _ = m.handle(.up)
        #expect(m.scroll == 0)
        let quits = !m.handle(.character("q"))
        #expect(quits)
        #expect(TopKey.parse(Array("\u{1B}[A\u{1B}[B\u{1B}[5~q/\r\u{7F}\u{1B}".utf8)) == [.up, .down, .pageUp, .character("q"), .character("/"), .enter, .backspace, .escape])
    }

    @Test func rendersExactlyTheScreen() {
        let narrow = TopRenderer.render(model(), width: 60, height: 12, now: 5_000_000)
        #expect(narrow.count == 12)
        #expect(narrow.allSatisfy { $0.count <= 60 })
        #expect(narrow.contains(String(repeating: "─", count: 60)))
        #expect(narrow.last == "q quit  / filter by app  ↑↓ PgUp PgDn scroll  60x12")
        let lines = TopRenderer.render(model(), width: 120, height: 12, now: 5_000_000)
        #expect(lines[0] == "deeplinker top  2 apps, 1 pending")
        #expect(lines.contains { $0.hasPrefix("b.App") && $0.contains("inactive") && $0.contains("recipe") && $0.contains("3 s") })
    }
}

extension TopTests {
    @Test func sigtermRestoresTheTerminal() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            try await TmuxSession.with(command: command(f)) { tmux in
                try await tmux.waitForText("com.example.Apartments")
                // The pane's shell runs top as its only child.
                let shell = try await tmux.format("#{pane_pid}")
                let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
                let top = try #require(children.split(separator: " ").first.flatMap { Int32($0) })
                #expect(kill(top, SIGTERM) == 0)
                try await expectRestored(tmux, exit: 143)
            }
        }
    }
}
