import DeeplinkerCore
import Foundation
import Testing

/// The native messaging framing and messages of SPEC §10, without a process.
@Suite struct NativeMessagingTests {
    func framed(_ json: String) -> [UInt8] {
        NativeMessageFraming.header(length: json.utf8.count) + Array(json.utf8)
    }

    @Test func theLengthIsInNativeByteOrder() {
        let header = NativeMessageFraming.header(length: 0x0102_0304)
        #expect(header == withUnsafeBytes(of: UInt32(0x0102_0304)) { Array($0) })
        #expect(NativeMessageFraming.length(ofHeader: header) == 0x0102_0304)
        #expect(NativeMessageFraming.length(ofHeader: [0xFF, 0xFF, 0xFF, 0xFF]) == Int(UInt32.max))
    }

    @Test func framesComeOutWholeHoweverTheBytesArrive() throws {
        let stream = framed(#"{"type":"claims"}"#) + framed("") + framed(#"{"type":"open","url":"https://a.example/x"}"#)
        for split in 0...stream.count {
            var decoder = NativeFrameDecoder()
            var payloads: [String] = []
            for part in [stream[..<split], stream[split...]] {
                decoder.append(part)
                while let payload = try decoder.nextFrame() { payloads.append(String(decoding: payload, as: UTF8.self)) }
            }
            #expect(payloads == [#"{"type":"claims"}"#, "", #"{"type":"open","url":"https://a.example/x"}"#], "split at \(split)")
            #expect(decoder.bufferedCount == 0)
            try decoder.finish()
        }
    }

    @Test func aLengthOverTheLimitIsRefusedBeforeItsPayload() {
        var decoder = NativeFrameDecoder()
        decoder.append(NativeMessageFraming.header(length: NativeMessageFraming.maxIncoming + 1))
        #expect(throws: NativeMessageError.frameTooLarge(length: 64 * 1024 * 1024 + 1, limit: 64 * 1024 * 1024)) {
            try decoder.nextFrame()
        }
        var atLimit = NativeFrameDecoder()
        atLimit.append(NativeMessageFraming.header(length: NativeMessageFraming.maxIncoming))
        #expect((try? atLimit.nextFrame()) == .some(nil), "exactly 64 MiB is allowed: it waits for the payload")
        #expect(NativeMessageError.frameTooLarge(length: 1, limit: 0).isFatal)
    }

    @Test func inputThatEndsInsideAMessageIsTruncated() throws {
        var decoder = NativeFrameDecoder()
        decoder.append(Array(framed(#"{"type":"claims"}"#).prefix(9)))
        #expect(try decoder.nextFrame() == nil)
        #expect(throws: NativeMessageError.truncatedFrame(received: 5, expected: 17)) { try decoder.finish() }
        var header = NativeFrameDecoder()
        header.append([1, 0])
        #expect(throws: NativeMessageError.truncatedFrame(received: 2, expected: 4)) { try header.finish() }
    }

    @Test func requestsParse() throws {
        #expect(try NativeHostRequest.parse(Array(#"{"type":"claims"}"#.utf8)) == .claims)
        #expect(try NativeHostRequest.parse(Array(#" {"type":"open","url":"https://a.example/x","from":"https://b.example/"} "#.utf8))
            == .open(url: "https://a.example/x", from: "https://b.example/"))
        #expect(try NativeHostRequest.parse(Array(#"{"type":"open","url":"https://a.example/x","from":null,"extra":[1]}"#.utf8))
            == .open(url: "https://a.example/x", from: nil))
        #expect(try NativeHostRequest.parse(Array(#"{"type":"approve","app":"com.a.App","domain":"a.example"}"#.utf8))
            == .approve(appID: "com.a.App", domain: "a.example"))
        #expect(try NativeHostRequest.parse(Array(#"{"type":"revoke","app":"com.a.App","domain":"*.a.example"}"#.utf8))
            == .revoke(appID: "com.a.App", domain: "*.a.example"))
    }

    @Test(arguments: [
        ("{broken", "invalid-json"),
        ("", "invalid-json"),
        ("\u{FF}", "invalid-json"),
        (String(repeating: "[", count: 40) + String(repeating: "]", count: 40), "invalid-json"),
        ("[1, 2]", "invalid-message"),
        (#"{"kind":"claims"}"#, "invalid-message"),
        (#"{"type":7}"#, "invalid-message"),
        (#"{"type":"open"}"#, "invalid-message"),
        (#"{"type":"open","url":""}"#, "invalid-message"),
        (#"{"type":"open","url":"https://a.example/","from":5}"#, "invalid-message"),
        (#"{"type":"launch"}"#, "unknown-type"),
        (#"{"type":"approve","app":"com.a.App"}"#, "invalid-message"),
        (#"{"type":"revoke","domain":"a.example"}"#, "invalid-message"),
        (#"{"type":"approve","app":"","domain":"a.example"}"#, "invalid-message"),
    ])
    func badMessagesAreNamed(text: String, code: String) {
        let bytes: [UInt8] = text == "\u{FF}" ? [0xFF] : Array(text.utf8)
        do {
            _ = try NativeHostRequest.parse(bytes)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.code == code, "\(text): \(error)")
            #expect(!error.isFatal)
        }
    }

    @Test func repliesRenderAsCompactJSON() throws {
        #expect(String(decoding: NativeHostReply.handled(appID: "com.a.App", invocationID: "id-1").payload, as: UTF8.self)
            == #"{"app":"com.a.App","handled":true,"invocation":"id-1"}"#)
        let refused = NativeHostReply.notHandled(reason: "NoRoute", detail: "no route for \"x\"\n\u{1}\u{2028}")
        #expect(String(decoding: refused.payload, as: UTF8.self)
            == #"{"detail":"no route for \"x\"\n\u0001\u2028","handled":false,"reason":"NoRoute"}"#)
        let decoded = try JSONSerialization.jsonObject(with: Data(refused.payload)) as? [String: Any]
        #expect(decoded?["detail"] as? String == "no route for \"x\"\n\u{1}\u{2028}")
        let claims = NativeHostReply.claims([.init(appID: "com.a.App", name: "Ä \"App\"", domain: "*.a.example", verdict: "approved", detail: "d")])
        #expect(String(decoding: claims.payload, as: UTF8.self)
            == #"{"claims":[{"app":"com.a.App","detail":"d","domain":"*.a.example","name":"Ä \"App\"","verdict":"approved"}],"type":"claims","unverified":[]}"#)
        #expect(Array(NativeHostReply.error(.unknownType("x")).framed().dropFirst(4))
            == Array(#"{"detail":"unknown message type \"x\" (known: claims, open, approve, revoke)","error":"unknown-type","type":"error"}"#.utf8))
    }

    @Test func aReplyOverOneMebibyteBecomesAnErrorReply() {
        let many = (0..<20_000).map { NativeHostReply.Claim(appID: "com.example.App\($0)", name: String(repeating: "n", count: 40), domain: "d\($0).example") }
        let reply = NativeHostReply.claims(many)
        #expect(reply.payload.count > NativeMessageFraming.maxOutgoing)
        let framed = reply.framed()
        #expect(framed.count <= NativeMessageFraming.maxOutgoing + 4)
        #expect(NativeMessageFraming.length(ofHeader: framed.prefix(4)) == framed.count - 4)
        #expect(String(decoding: framed.dropFirst(4), as: UTF8.self).contains(#""error":"reply-too-large""#))
    }

    // MARK: The policy

    let claims = [
        NativeHostClaim(appID: "com.bestrecipes.App", domain: "bestrecipes.test", verdict: "verified"),
        NativeHostClaim(appID: "com.bestrecipes.App", domain: "*.bestrecipes.test", verdict: "verified"),
        NativeHostClaim(appID: "com.example.Apartments", domain: "apartments.test", verdict: "not-listed", detail: "the file lists com.other.App"),
        NativeHostClaim(appID: "com.example.Apartments", domain: "*.apartments.test", verdict: "unreachable", detail: "DNS: no such host"),
        NativeHostClaim(appID: "com.example.Fresh", domain: "fresh.test", verdict: ""),
        NativeHostClaim(appID: "com.a.One", domain: "shared.test", verdict: "verified"),
        NativeHostClaim(appID: "com.b.Two", domain: "shared.test", verdict: "verified"),
        NativeHostClaim(appID: "com.example.Mail", domain: "mail.test", verdict: "approved", detail: "approved by the user"),
        NativeHostClaim(appID: "com.example.Mail", domain: "*.mail.test", verdict: "unchecked", detail: "approval revoked by the user", checkedAtMicroseconds: 5),
    ]

    @Test func aVerifiedDomainOpensItsApp() {
        #expect(NativeHostPolicy.decide(url: "https://bestrecipes.test/recipe/12", claims: claims) == .open(appID: "com.bestrecipes.App"))
        #expect(NativeHostPolicy.decide(url: "https://BestRecipes.TEST/recipe/12", claims: claims) == .open(appID: "com.bestrecipes.App"))
        #expect(NativeHostPolicy.decide(url: "https://www.bestrecipes.test/", claims: claims) == .open(appID: "com.bestrecipes.App"))
    }

    @Test func aDomainTheUserApprovedOpensItsAppAsAVerifiedOneDoes() {
        #expect(NativeHostPolicy.decide(url: "https://mail.test/inbox", claims: claims) == .open(appID: "com.example.Mail"))
        guard case .refuse(let reason, let detail) = NativeHostPolicy.decide(url: "https://www.mail.test/inbox", claims: claims) else {
            Issue.record("a revoked approval still opens the app")
            return
        }
        #expect(reason == "not-verified")
        #expect(detail.contains("*.mail.test is unchecked (approval revoked by the user)"), "\(detail)")
    }

    @Test func aWildcardCoversSubdomainsOnly() {
        let onlyWildcard = [NativeHostClaim(appID: "com.x.App", domain: "*.x.test", verdict: "verified")]
        #expect(NativeHostPolicy.decide(url: "https://www.x.test/a", claims: onlyWildcard) == .open(appID: "com.x.App"))
        #expect(NativeHostPolicy.decide(url: "https://a.b.x.test/a", claims: onlyWildcard) == .open(appID: "com.x.App"))
        guard case .refuse(let reason, _) = NativeHostPolicy.decide(url: "https://x.test/a", claims: onlyWildcard) else {
            Issue.record("x.test is not covered by *.x.test")
            return
        }
        #expect(reason == "NoApp")
    }

    @Test(arguments: [
        ("https://apartments.test/listing/1", "not-verified", "apartments.test is not-listed (the file lists com.other.App)"),
        ("https://www.apartments.test/", "not-verified", "*.apartments.test is unreachable (DNS: no such host)"),
        ("https://fresh.test/", "not-verified", "fresh.test is never checked"),
        ("https://unclaimed.example/", "NoApp", "no app claims the domain unclaimed.example"),
        ("https://shared.test/", "AmbiguousApp", "com.a.One, com.b.Two"),
        ("http://bestrecipes.test/recipe/12", "not-verified", "not an https link"),
        ("bestrecipes://recipe/12", "not-verified", "not an https link"),
        ("https://bestrecipes.test/a/../b", "InvalidURL", "invalid URL"),
    ])
    func otherLinksStayInTheBrowser(url: String, reason: String, detail: String) {
        guard case .refuse(let actualReason, let actualDetail) = NativeHostPolicy.decide(url: url, claims: claims) else {
            Issue.record("\(url) would be opened")
            return
        }
        #expect(actualReason == reason)
        #expect(actualDetail.contains(detail), "\(actualDetail)")
    }

    @Test func theClaimsListHasEveryClaimWithItsVerdictAndName() {
        let listed = NativeHostPolicy.browserClaims(claims + [claims[0]], names: ["com.bestrecipes.App": "Best Recipes"])
        #expect(listed.map { "\($0.appID) \($0.name) \($0.domain) \($0.verdict)" } == [
            "com.a.One com.a.One shared.test verified",
            "com.b.Two com.b.Two shared.test verified",
            "com.bestrecipes.App Best Recipes *.bestrecipes.test verified",
            "com.bestrecipes.App Best Recipes bestrecipes.test verified",
            "com.example.Apartments com.example.Apartments *.apartments.test unreachable",
            "com.example.Apartments com.example.Apartments apartments.test not-listed",
            "com.example.Fresh com.example.Fresh fresh.test unchecked",
            "com.example.Mail com.example.Mail *.mail.test unchecked",
            "com.example.Mail com.example.Mail mail.test approved",
        ])
        #expect(listed.first { $0.domain == "apartments.test" }?.detail == "the file lists com.other.App")
        // The reply keeps the verified ones (and the approved) apart from the rest.
        guard case .claims(let verified, let unverified) = NativeHostPolicy.claimsReply(claims, names: [:]) else {
            Issue.record("not a claims reply")
            return
        }
        #expect(verified.map(\.domain) == ["shared.test", "shared.test", "*.bestrecipes.test", "bestrecipes.test", "mail.test"])
        #expect(unverified.map(\.domain) == ["*.apartments.test", "apartments.test", "fresh.test", "*.mail.test"])
    }

    @Test func verifiedClaimsOlderThanSevenDaysAreCheckedAgain() {
        let day: Int64 = 24 * 3600 * 1_000_000
        let now: Int64 = 100 * day
        let claims = [
            NativeHostClaim(appID: "com.a.Old", domain: "a.test", verdict: "verified", checkedAtMicroseconds: now - 8 * day),
            NativeHostClaim(appID: "com.a.Old", domain: "*.a.test", verdict: "verified", checkedAtMicroseconds: now - 9 * day),
            NativeHostClaim(appID: "com.b.Fresh", domain: "b.test", verdict: "verified", checkedAtMicroseconds: now - 6 * day),
            NativeHostClaim(appID: "com.c.Refused", domain: "c.test", verdict: "not-listed", checkedAtMicroseconds: now - 30 * day),
            NativeHostClaim(appID: "com.d.Never", domain: "d.test", verdict: "", checkedAtMicroseconds: 0),
            // An approval is the user's, not the site's: there is nothing to check again.
            NativeHostClaim(appID: "com.e.Approved", domain: "e.test", verdict: "approved", checkedAtMicroseconds: now - 30 * day),
        ]
        #expect(NativeHostPolicy.appsToReverify(claims, now: now) == ["com.a.Old"])
        #expect(NativeHostPolicy.appsToReverify(claims, now: now - 2 * day).isEmpty)
    }
}
