import DBusKit
@testable import DeeplinkerCLI
import DeeplinkerCore
import DeeplinkerTestSupport
import Foundation
import Testing

/// `deeplinker native-host` (SPEC §10) on real pipes: the session loop in this process, then the
/// built binary against a socket that records connection attempts and against a real daemon.
@Suite struct NativeHostTests {
    static func frame(_ json: String) -> [UInt8] {
        NativeMessageFraming.header(length: json.utf8.count) + Array(json.utf8)
    }

    // MARK: The session loop on pipes

    /// A session reading one pipe and writing another, its requests recorded.
    final class PipedSession: Sendable {
        let requests = Recorder<NativeHostRequest>()
        let ending = Recorder<NativeHostSession.Ending>()
        let input: Int32
        let output: Int32
        let replies = Recorder<String>()

        init(answer: @escaping @Sendable (NativeHostRequest) -> NativeHostReply = { _ in .handled(appID: "com.a.App", invocationID: "1") }) throws {
            var toHost: [Int32] = [-1, -1], fromHost: [Int32] = [-1, -1]
            guard pipe(&toHost) == 0, pipe(&fromHost) == 0 else { throw POSIXError(.EMFILE) }
            input = toHost[1]
            output = fromHost[0]
            let requests = self.requests, ending = self.ending, replies = self.replies
            let (hostIn, hostOut) = (toHost[0], fromHost[1])
            Task.detached {
                let session = NativeHostSession(input: hostIn, output: hostOut) { request in
                    requests.put(request)
                    return answer(request)
                }
                let end = await session.run()
                close(hostIn)
                close(hostOut)
                ending.put(end)
            }
            let out = output
            Thread.detachNewThread {
                var decoder = NativeFrameDecoder(limit: NativeMessageFraming.maxOutgoing)
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = read(out, &chunk, chunk.count)
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    decoder.append(chunk[0..<count])
                    while let payload = try? decoder.nextFrame() { replies.put(String(decoding: payload, as: UTF8.self)) }
                }
                close(out)
            }
        }

        func write(_ bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Foundation.write(input, $0.baseAddress, $0.count) }
                guard n > 0 else { return }
                offset += n
            }
        }

        func closeInput() { close(input) }
    }

    @Test func goodFramesAreAnsweredInOrder() async throws {
        let session = try PipedSession { request in
            request == .claims ? .claims([.init(appID: "com.a.App", name: "A", domain: "a.example")]) : .handled(appID: "com.a.App", invocationID: "7")
        }
        // Two messages in one write, then one a byte at a time.
        session.write(Self.frame(#"{"type":"claims"}"#) + Self.frame(#"{"type":"open","url":"https://a.example/x","from":"https://b.example/"}"#))
        for byte in Self.frame(#"{"type":"claims"}"#) { session.write([byte]) }
        #expect(try await session.replies.next() == #"{"claims":[{"app":"com.a.App","detail":"","domain":"a.example","name":"A","verdict":"verified"}],"type":"claims","unverified":[]}"#)
        #expect(try await session.replies.next() == #"{"app":"com.a.App","handled":true,"invocation":"7"}"#)
        #expect(try await session.replies.next() == #"{"claims":[{"app":"com.a.App","detail":"","domain":"a.example","name":"A","verdict":"verified"}],"type":"claims","unverified":[]}"#)
        session.closeInput()
        #expect(try await session.ending.next() == .endOfInput)
        #expect(session.requests.all == [.claims, .open(url: "https://a.example/x", from: "https://b.example/"), .claims])
    }

    @Test func brokenJSONAndUnknownTypesGetErrorRepliesAndNeverReachTheDaemon() async throws {
        let session = try PipedSession()
        session.write(Self.frame("{broken") + Self.frame(#"{"type":"explode"}"#) + Self.frame(#"{"type":"open"}"#) + Self.frame(""))
        #expect(try await session.replies.next().contains(#""error":"invalid-json""#))
        #expect(try await session.replies.next().contains(#""error":"unknown-type""#))
        #expect(try await session.replies.next().contains(#""error":"invalid-message""#))
        #expect(try await session.replies.next().contains(#""error":"invalid-json""#))
        // Still reading: a good message after them is answered.
        session.write(Self.frame(#"{"type":"claims"}"#))
        #expect(try await session.replies.next().contains(#""handled":true"#))
        session.closeInput()
        #expect(try await session.ending.next() == .endOfInput)
        #expect(session.requests.all == [.claims])
    }

    /// One host serves a whole browser session: hundreds of messages, bad ones among them, each
    /// answered in order, and the limits still hold at the end of the stream.
    @Test func aLongStreamOfMessagesIsAnsweredInOrderAndItsLimitsStillHold() async throws {
        let session = try PipedSession { request in
            guard case .open(let url, _) = request else { return .claims([]) }
            return .handled(appID: "com.a.App", invocationID: url)
        }
        var stream: [UInt8] = []
        for i in 0..<500 {
            stream += i % 50 == 49 ? Self.frame("{broken \(i)") : Self.frame(#"{"type":"open","url":"https://a.example/\#(i)"}"#)
        }
        // In pieces of a size that never lines up with the frames.
        for start in stride(from: 0, to: stream.count, by: 997) { session.write(Array(stream[start..<min(stream.count, start + 997)])) }
        for i in 0..<500 {
            let reply = try await session.replies.next()
            if i % 50 == 49 {
                #expect(reply.contains(#""error":"invalid-json""#), "\(i): \(reply)")
            } else {
                #expect(reply == #"{"app":"com.a.App","handled":true,"invocation":"https:\/\/a.example\/\#(i)"}"# || reply.contains(#"a.example/\#(i)""#), "\(i): \(reply)")
            }
        }
        #expect(session.requests.all.count == 490)
        session.write(NativeMessageFraming.header(length: NativeMessageFraming.maxIncoming + 1))
        #expect(try await session.ending.next() == .fatal(.frameTooLarge(length: 64 * 1024 * 1024 + 1, limit: 64 * 1024 * 1024)))
        #expect(try await session.replies.next().contains(#""error":"frame-too-large""#))
        session.closeInput()
    }

    @Test func anOversizedLengthEndsTheSessionWithAnErrorReply() async throws {
        let session = try PipedSession()
        session.write(NativeMessageFraming.header(length: NativeMessageFraming.maxIncoming + 1) + Array("{}".utf8))
        #expect(try await session.ending.next() == .fatal(.frameTooLarge(length: 64 * 1024 * 1024 + 1, limit: 64 * 1024 * 1024)))
        #expect(try await session.replies.next().contains(#""error":"frame-too-large""#))
        #expect(session.requests.all.isEmpty)
        session.closeInput()
    }

    @Test func inputEndingInsideAMessageIsFatal() async throws {
        let session = try PipedSession()
        session.write(Array(Self.frame(#"{"type":"claims"}"#).prefix(10)))
        session.closeInput()
        #expect(try await session.ending.next() == .fatal(.truncatedFrame(received: 6, expected: 17)))
        #expect(session.requests.all.isEmpty)
    }

    @Test func aLargeMessageUnderTheLimitIsRead() async throws {
        let session = try PipedSession()
        let url = "https://a.example/" + String(repeating: "x", count: 3 * 1024 * 1024)
        session.write(Self.frame(#"{"type":"open","url":"\#(url)"}"#))
        #expect(try await session.replies.next().contains(#""handled":true"#))
        session.closeInput()
        #expect(try await session.ending.next() == .endOfInput)
        #expect(session.requests.all == [.open(url: url, from: nil)])
    }

    // MARK: The binary

    /// A Unix socket that accepts and at once closes every connection, counting them: a bus
    /// address the host can only fail to use, and proof of whether it tried.
    final class ConnectionProbe: Sendable {
        let path: String
        let accepted = Recorder<Void>()
        private let fd: Int32

        init(directory: TemporaryDirectory) throws {
            path = directory.appending("probe.sock")
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            self.fd = fd
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0, listen(fd, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
            let (listening, accepted) = (fd, self.accepted)
            Thread.detachNewThread {
                while true {
                    let client = accept(listening, nil, nil)
                    if client < 0 { if errno == EINTR { continue }; return }
                    accepted.put(())
                    close(client)
                }
            }
        }

        var address: String { "unix:path=\(path)" }

        deinit {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    @Test func badFramesNeverOpenABusConnection() async throws {
        try await TemporaryDirectory.with { directory in
            let probe = try ConnectionProbe(directory: directory)
            let host = try NativeHostProcess(arguments: ["native-host", "chrome-extension://abcdefghijklmnopabcdefghijklmnop/", "--bus-address", probe.address])
            host.send("{broken")
            #expect(try await host.reply()["error"] as? String == "invalid-json")
            host.send(#"{"type":"nope"}"#)
            #expect(try await host.reply()["error"] as? String == "unknown-type")
            host.send(#"{"type":"open","url":7}"#)
            #expect(try await host.reply()["error"] as? String == "invalid-message")
            #expect(probe.accepted.all.isEmpty)
            // A good message does try the bus, and is told the daemon is down.
            let open = try await host.ask(#"{"type":"open","url":"https://bestrecipes.com/recipe/1","from":"https://other.example/"}"#)
            #expect(open["handled"] as? Bool == false)
            #expect(open["reason"] as? String == "daemon-down")
            #expect(probe.accepted.all.count == 1)
            host.closeInput()
            #expect(try await host.waitForExit() == 0)
            #expect(host.protocolErrors.all.isEmpty)
        }
    }

    @Test func anOversizedLengthEndsTheHostWithExit15() async throws {
        let host = try NativeHostProcess(arguments: ["native-host", "--bus-address", "unix:path=/nonexistent/bus"])
        host.write(NativeMessageFraming.header(length: NativeMessageFraming.maxIncoming + 1))
        #expect(try await host.reply()["error"] as? String == "frame-too-large")
        #expect(try await host.waitForExit() == 15)
        #expect(host.stderr.contains("over the limit of 67108864"), "\(host.stderr)")
    }

    @Test func theHostExitsWhenTheBrowserClosesStdin() async throws {
        let host = try NativeHostProcess(arguments: ["native-host", "--bus-address", "unix:path=/nonexistent/bus"])
        host.closeInput()
        #expect(try await host.waitForExit() == 0)
        #expect(host.replies.all.isEmpty)
        #expect(host.stderr.isEmpty, "\(host.stderr)")

        let cut = try NativeHostProcess(arguments: ["native-host", "--bus-address", "unix:path=/nonexistent/bus"])
        cut.write(Array(Self.frame(#"{"type":"claims"}"#).prefix(6)))
        cut.closeInput()
        #expect(try await cut.waitForExit() == 15)
        #expect(cut.stderr.contains("the input ended after 2 of 17 bytes"), "\(cut.stderr)")
    }
}

/// `deeplinker native-host` against a real daemon whose verdicts the test sets.
@Suite
struct NativeHostDaemonTests {
    static let app = BrowserEndToEndTests.app

    static func withHost(_ body: (DaemonFixture, NativeHostProcess) async throws -> Void) async throws {
        try await DaemonFixture.withDaemon(routeFiles: BrowserEndToEndTests.routeFiles) { f in
            for (app, domain, verdict) in [
                (app, "bestrecipes.test", "verified"), (app, "*.bestrecipes.test", "verified"),
                ("com.example.Apartments", "apartments.test", "not-listed"),
            ] {
                try await f.call("SetDomainVerification", [.string(app), .string(domain), .string(verdict), .string("set by the test")])
            }
            let host = try NativeHostProcess(
                arguments: ["native-host", "chrome-extension://\(BrowserHosts.chromiumExtensionID)/", "--bus-address", f.bus.address, "--config-dir", f.configDir])
            try await body(f, host)
            host.closeInput()
            #expect(try await host.waitForExit() == 0)
            #expect(host.protocolErrors.all.isEmpty)
        }
    }

    @Test func claimsAreTheVerifiedDomainsAndApartTheOthersWithVerdictsAndTheAppsName() async throws {
        try await Self.withHost { _, host in
            let reply = try await host.ask(#"{"type":"claims"}"#)
            #expect(reply["type"] as? String == "claims")
            let claims = try #require(reply["claims"] as? [[String: String]])
            #expect(claims == [
                ["app": Self.app, "name": "Best Recipes", "domain": "*.bestrecipes.test", "verdict": "verified", "detail": "set by the test"],
                ["app": Self.app, "name": "Best Recipes", "domain": "bestrecipes.test", "verdict": "verified", "detail": "set by the test"],
            ])
            #expect(reply["unverified"] as? [[String: String]] == [
                ["app": "com.example.Apartments", "name": "Apartments", "domain": "apartments.test", "verdict": "not-listed", "detail": "set by the test"],
            ])
        }
    }

    /// The verdict of `apartments.test` in a claims reply.
    static func apartmentsVerdict(_ reply: [String: Any]) -> String? {
        let all = (reply["claims"] as? [[String: String]] ?? []) + (reply["unverified"] as? [[String: String]] ?? [])
        return all.first { $0["domain"] == "apartments.test" }?["verdict"]
    }

    /// The same long-lived host sees each verdict as soon as it is recorded: by `approve-domain`,
    /// by its own `approve` and `revoke` messages, by `revoke-domain`; and it reaches a daemon
    /// that was restarted under it.
    @Test func oneHostSeesEachNewVerdictAtItsNextMessage() async throws {
        try await Self.withHost { f, host in
            let standIn = try await f.activeStandIn("com.example.Apartments")
            let open = #"{"type":"open","url":"https://apartments.test/listing/4","from":"https://other.test/"}"#
            #expect(try await host.ask(open)["reason"] as? String == "not-verified")

            #expect(try await f.run(["approve-domain", "com.example.Apartments", "apartments.test"]).status == 0)
            #expect(Self.apartmentsVerdict(try await host.ask(#"{"type":"claims"}"#)) == "approved")
            #expect(try await host.ask(open)["handled"] as? Bool == true)
            #expect(try await standIn.received.next().parameters == ["id": "4"])

            let revoked = try await host.ask(#"{"type":"revoke","app":"com.example.Apartments","domain":"apartments.test"}"#)
            #expect(Self.apartmentsVerdict(revoked) == "unchecked", "\(revoked)")
            #expect(try await host.ask(open)["reason"] as? String == "not-verified")
            let approved = try await host.ask(#"{"type":"approve","app":"com.example.Apartments","domain":"apartments.test"}"#)
            #expect(Self.apartmentsVerdict(approved) == "approved", "\(approved)")
            let claims = try await f.proxy()
            defer { claims.connection.close() }
            #expect(try await claims.linkClaims().first { $0.domain == "apartments.test" }?.detail == "approved by the user in the browser")

            // A domain the app does not claim is the daemon's refusal, named.
            let bad = try await host.ask(#"{"type":"approve","app":"com.example.Apartments","domain":"bestrecipes.test"}"#)
            #expect(bad["type"] as? String == "error" && bad["error"] as? String == "InvalidParameter", "\(bad)")

            try await f.stopDaemon()
            #expect(try await host.ask(open)["reason"] as? String == "daemon-down")
            try await f.startDaemon()
            // The approval survived the restart (it is stored), and the host connects again.
            let reopened = try await host.ask(open)
            #expect(reopened["handled"] as? Bool == true, "\(reopened)")
            #expect(reopened["app"] as? String == "com.example.Apartments")
            #expect(try await f.run(["revoke-domain", "com.example.Apartments", "apartments.test"]).status == 0)
            #expect(try await host.ask(open)["reason"] as? String == "not-verified")
        }
    }

    @Test func aVerifiedLinkReachesItsAppAndOthersAreRefused() async throws {
        try await Self.withHost { f, host in
            let standIn = try await f.activeStandIn(Self.app)
            let open = try await host.ask(#"{"type":"open","url":"https://www.bestrecipes.test/recipe/12","from":"https://other.test/"}"#)
            #expect(open["handled"] as? Bool == true, "\(open)")
            #expect(open["app"] as? String == Self.app)
            let invocation = try #require(open["invocation"] as? String)
            let route = try await standIn.received.next()
            #expect(route.invocationID == invocation)
            #expect(route.source == "universal-link")
            #expect(route.parameters == ["id": "12"])

            for (url, reason) in [
                ("https://apartments.test/listing/1", "not-verified"),
                ("https://bestrecipes.test/nothing/here", "NoRoute"),
                ("https://unclaimed.test/", "NoApp"),
                ("https://bestrecipes.test/recipe/abc", "InvalidParameter"),
                ("http://bestrecipes.test/recipe/12", "not-verified"),
            ] {
                let refused = try await host.ask(#"{"type":"open","url":"\#(url)","from":"https://other.test/"}"#)
                #expect(refused["handled"] as? Bool == false, "\(url): \(refused)")
                #expect(refused["reason"] as? String == reason, "\(url): \(refused)")
                #expect((refused["detail"] as? String)?.isEmpty == false)
            }
            #expect(try await f.history("com.example.Apartments").isEmpty)
        }
    }

    @Test func aStoppedDaemonIsReportedAsDown() async throws {
        try await Self.withHost { f, host in
            try await f.stopDaemon()
            let open = try await host.ask(#"{"type":"open","url":"https://bestrecipes.test/recipe/12","from":"https://other.test/"}"#)
            #expect(open["handled"] as? Bool == false)
            #expect(open["reason"] as? String == "daemon-down", "\(open)")
            let claims = try await host.ask(#"{"type":"claims"}"#)
            #expect(claims["type"] as? String == "error")
            #expect(claims["error"] as? String == "daemon-down")
        }
    }
}
