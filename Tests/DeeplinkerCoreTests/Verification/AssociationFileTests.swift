import DeeplinkerCore
import Testing

/// The association file's rules (SPEC §10), pure: what a fetched file or a failed fetch means for
/// a claim, and the 30-day grace of an unreachable check.
@Suite("Association file and verdict rules")
struct AssociationFileTests {
    static let app = "com.bestrecipes.App"
    static let exact = DomainPattern(parsing: "bestrecipes.com")!
    static let wildcard = DomainPattern(parsing: "*.bestrecipes.com")!

    static func verdict(_ file: String, _ claim: DomainPattern = exact, app: String = app) -> (DomainVerdict, String) {
        let (verdict, detail) = AssociationFile.verdict(body: Array(file.utf8), appID: app, claim: claim)
        return (verdict, detail)
    }

    @Test("both x and *.x are decided by the file on x")
    func url() {
        #expect(AssociationFile.url(for: Self.exact) == "https://bestrecipes.com/.well-known/deeplinker-app-links.json")
        #expect(AssociationFile.url(for: Self.wildcard) == AssociationFile.url(for: Self.exact))
    }

    @Test("a file listing the app verifies an exact claim, with or without subdomains")
    func listed() {
        let file = """
            {"apps": [
              {"id": "com.other.App"},
              {"id": "com.bestrecipes.App"}
            ]}
            """
        #expect(Self.verdict(file).0 == .verified)
        #expect(Self.verdict(file).1.contains("listed in https://bestrecipes.com/"))
    }

    @Test("a *.x claim needs \"subdomains\": true")
    func subdomains() {
        let with = """
            {"apps": [{"id": "com.bestrecipes.App", "subdomains": true}]}
            """
        let without = """
            {"apps": [{"id": "com.bestrecipes.App"}]}
            """
        let off = """
            {"apps": [{"id": "com.bestrecipes.App", "subdomains": "yes"}]}
            """
        #expect(Self.verdict(with, Self.wildcard).0 == .verified)
        #expect(Self.verdict(with).0 == .verified)
        let (verdict, detail) = Self.verdict(without, Self.wildcard)
        #expect(verdict == .notListed && detail.contains("subdomains") && detail.contains("*.bestrecipes.com"), "\(detail)")
        #expect(Self.verdict(off, Self.wildcard).0 == .notListed)
    }

    @Test("a file that does not list the app is not-listed, naming the apps it lists")
    func notListed() {
        let file = """
            {"apps": [{"id": "com.other.App", "subdomains": true}, {"id": "org.third.App"}]}
            """
        let (verdict, detail) = Self.verdict(file)
        #expect(verdict == .notListed)
        #expect(detail.contains("does not list com.bestrecipes.App") && detail.contains("com.other.App, org.third.App"), "\(detail)")
        // Ids are compared exactly.
        #expect(Self.verdict(#"{"apps": [{"id": "com.bestrecipes.app"}]}"#).0 == .notListed)
        #expect(Self.verdict(#"{"apps": []}"#).1.contains("lists no app"))
    }

    @Test("broken JSON, or JSON of another form, is not-listed naming why", arguments: [
        (#"{"apps": [{"id": "com.bestrecipes.App"}"#, "broken JSON"),
        ("<html>Not here</html>", "broken JSON"),
        ("", "broken JSON"),
        (#"{"applinks": {}}"#, "no \"apps\" array"),
        (#"["com.bestrecipes.App"]"#, "no \"apps\" array"),
        (#"{"apps": {"id": "com.bestrecipes.App"}}"#, "no \"apps\" array"),
        (#"{"apps": ["com.bestrecipes.App", {"id": 5}]}"#, "does not list"),
    ])
    func malformed(_ file: String, _ named: String) {
        let (verdict, detail) = Self.verdict(file)
        #expect(verdict == .notListed)
        #expect(detail.contains(named), "\(detail)")
    }

    @Test("a failed fetch is unreachable, its detail naming the layer", arguments: [
        (FetchFailure.dns(host: "bestrecipes.com", reason: "no such host"), "DNS: bestrecipes.com"),
        (.tcp(host: "bestrecipes.com", reason: "Connection refused"), "TCP: no connection to bestrecipes.com:443: Connection refused"),
        (.tls(host: "bestrecipes.com", reason: "unable to get local issuer certificate"), "TLS: bestrecipes.com: unable to get local issuer certificate"),
        (.httpStatus(404), "HTTP: status 404"),
        (.redirect(status: 301, location: "https://www.bestrecipes.com/x"), "redirects to https://www.bestrecipes.com/x; redirects are not followed"),
        (.tooLarge(limit: 128 * 1024), "larger than 128 KiB"),
        (.timeout(seconds: 10), "timed out after 10 s"),
    ])
    func unreachable(_ failure: FetchFailure, _ named: String) {
        let (verdict, detail) = AssociationFile.verdict(fetch: .failure(failure), appID: Self.app, claim: Self.exact)
        #expect(verdict == .unreachable)
        #expect(detail.contains(named), "\(detail)")
    }

    @Test("the grace: unreachable keeps verified for 30 days after the last verified check; not-listed ends it")
    func grace() {
        let day: Int64 = 86_400_000_000
        let verified = DomainCheck.recording(.verified, detail: "", appID: Self.app, domain: "bestrecipes.com", at: 100 * day, previous: nil)
        let down = DomainCheck.recording(.unreachable, detail: "TCP", appID: Self.app, domain: "bestrecipes.com", at: 110 * day, previous: verified)
        #expect(down.verifiedAt == 100 * day && down.checkedAt == 110 * day)
        #expect(down.shown(at: 110 * day).verdict == "verified")
        #expect(down.shown(at: 110 * day).detail.contains("20 more days"))
        #expect(down.shown(at: 130 * day - 1).verdict == "verified")
        #expect(down.shown(at: 130 * day) == ("unreachable", "TCP"))
        let gone = DomainCheck.recording(.notListed, detail: "no", appID: Self.app, domain: "bestrecipes.com", at: 111 * day, previous: down)
        let downAgain = DomainCheck.recording(.unreachable, detail: "TCP", appID: Self.app, domain: "bestrecipes.com", at: 112 * day, previous: gone)
        #expect(downAgain.shown(at: 112 * day).verdict == "unreachable")
        // Never verified: unreachable from the start.
        let never = DomainCheck.recording(.unreachable, detail: "DNS", appID: Self.app, domain: "bestrecipes.com", at: day, previous: nil)
        #expect(never.shown(at: day).verdict == "unreachable")
    }
}
