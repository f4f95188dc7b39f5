import Testing
@testable import DeeplinkerCore

/// SPEC §4 URL rules, enforced by `ValidatedURL` without trusting URLComponents.
struct URLValidationTests {
    func invalid(_ url: String) -> DeeplinkerError? {
        RoutingFixtures.error { () throws(DeeplinkerError) in try ValidatedURL(url) }
    }

    @Test func customSchemeHostIsFirstSegment() throws {
        #expect(try ValidatedURL("bestrecipes://recipe/12").segments == ["recipe", "12"])
        #expect(try ValidatedURL("bestrecipes:///recipe/12").segments == ["recipe", "12"])
        #expect(try ValidatedURL("BestRecipes://recipe/12/").scheme == "bestrecipes")
        #expect(try ValidatedURL("x://").segments == [])
    }

    @Test func httpsHostAndPath() throws {
        let url = try ValidatedURL("HTTPS://BestRecipes.COM./recipe/12?x=1#frag")
        #expect(url.host == "bestrecipes.com")
        #expect(url.segments == ["recipe", "12"])
        #expect(url.queryItems == [QueryItem(name: "x", value: "1")])
        #expect(try ValidatedURL("https://bestrecipes.com").segments == [])
        #expect(try ValidatedURL("https://a.com:8443/x").port == 8443)
    }

    @Test func idnHostsBecomePunycode() throws {
        #expect(try ValidatedURL("https://bücher.example/").host == "xn--bcher-kva.example")
        #expect(try ValidatedURL("https://B%C3%BCcher.example/").host == "xn--bcher-kva.example")
        #expect(try ValidatedURL("https://MÜNCHEN.de/").host == "xn--mnchen-3ya.de")
        #expect(try ValidatedURL("https://xn--bcher-kva.example/").host == "xn--bcher-kva.example")
        #expect(try ValidatedURL("https://%41.Example/").host == "a.example")
        #expect(try ValidatedURL("https://bücher\u{3002}example/").host == "xn--bcher-kva.example")
        // Decomposed (u + combining diaeresis) is composed first; the fullwidth stops are dots too.
        #expect(try ValidatedURL("https://bu\u{308}cher\u{FF0E}example/").host == "xn--bcher-kva.example")
        #expect(try ValidatedURL("https://B%75%CC%88cher\u{FF61}example/").host == "xn--bcher-kva.example")
    }

    @Test func punycodeVectors() {
        // RFC 3492 §7.1 samples and common hosts.
        #expect(Punycode.encode(Array("bücher".unicodeScalars)) == "bcher-kva")
        #expect(Punycode.encode(Array("münchen".unicodeScalars)) == "mnchen-3ya")
        #expect(Punycode.encode(Array("他们为什么不说中文".unicodeScalars)) == "ihqwcrb4cv8a8dqg056pqjye")
        #expect(Punycode.encode(Array("Pročprostěnemluvíčesky".unicodeScalars)) == "Proprostnemluvesky-uyb24dma41a")
        #expect(Punycode.encode(Array("ليهمابتكلموشعربي؟".unicodeScalars)) == "egbpdaj6bu4bxfgehfvwxn")
    }

    @Test func splitBeforeDecoding() throws {
        let url = try ValidatedURL("x://files/a%2Fb/c%20d")
        #expect(url.segments == ["files", "a/b", "c d"])
    }

    @Test func rawNonASCIIIsItsUTF8Encoding() throws {
        let raw = try ValidatedURL("x://search/crème?q=brûlée")
        let encoded = try ValidatedURL("x://search/cr%C3%A8me?q=br%C3%BBl%C3%A9e")
        #expect(raw.segments == encoded.segments)
        #expect(raw.queryItems == encoded.queryItems)
        #expect(raw.normalized == "x://search/cr%C3%A8me?q=br%C3%BBl%C3%A9e")
    }

    @Test func queryItems() throws {
        let url = try ValidatedURL("x://a?b=1+2&b=3&&flag&c=%2B&d=x=y")
        #expect(url.queryItems == [
            QueryItem(name: "b", value: "1+2"), QueryItem(name: "b", value: "3"), QueryItem(name: "flag", value: ""),
            QueryItem(name: "c", value: "+"), QueryItem(name: "d", value: "x=y"),
        ])
    }

    @Test func emptySegmentsCollapse() throws {
        #expect(try ValidatedURL("x://recipe//12//").segments == ["recipe", "12"])
    }

    @Test(arguments: [
        "x://a/\u{0}", "x://a/%00", "x://a/%0A", "x://a?q=%0d%0a", "x://a/%7F", "x://a/\u{85}", "x://a/%C2%85",
        "x://a/\u{202E}b", "x://a/%E2%80%AE", "x://a?q=%e2%80%8f", "x://a/%E2%81%A6", "https://a.com/\u{2069}", "x://a#%00",
        "x://a/\u{200E}", "x://a\t/b",
    ])
    func controlAndBidiCharacters(url: String) {
        #expect(invalid(url)?.name == "InvalidURL")
    }

    @Test(arguments: [
        "x:recipe/12", "x:/recipe/12", "x://recipe:80/12", "x://host:/a", "x://user@recipe/1", "https://user:pw@a.com/",
        "x://a/../b", "x://a/./b", "x://a/%2e%2E/b", "x://%2E/b", "x://a/b%2F..%2Fc", "https://a.com/..",
        "recipe/12", "://a", "1x://a", "x://a/%zz", "x://a/%4", "x://a\\b", "https:///path", "https://a.com:99999/",
        "https://a.com:8x/", "https://exa mple.com/", "https://a..com/", "x://a/%FF", "x://a?q=%C3",
    ])
    func invalidURLs(url: String) {
        #expect(invalid(url)?.name == "InvalidURL", "\(url)")
    }

    @Test func invalidMessageNamesTheURL() {
        let error = invalid("x://a/%2e%2e")
        #expect(error?.message.contains("x://a/%2e%2e") == true)
    }

    @Test func sizeLimits() throws {
        let long = "x://a/" + String(repeating: "b", count: Limits.urlBytes - 6)
        #expect(try ValidatedURL(long).segments.count == 2)
        #expect(invalid(long + "b") == .tooLarge(what: "URL", size: Limits.urlBytes + 1, limit: Limits.urlBytes))
        let items = (0..<64).map { "k\($0)=v" }.joined(separator: "&")
        #expect(try ValidatedURL("x://a?" + items).queryItems.count == 64)
        #expect(invalid("x://a?" + items + "&k64=v")?.name == "TooLarge")
    }

    @Test func spacesAndUnsafeASCIIAreEncoded() throws {
        let url = try ValidatedURL("x://search?q=a b|c")
        #expect(url.queryItems == [QueryItem(name: "q", value: "a b|c")])
        #expect(url.normalized == "x://search?q=a%20b%7Cc")
    }
}
