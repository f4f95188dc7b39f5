/// An entry of `domains`: an exact host, or `*.host` matching any subdomain of host but not host itself.
/// Hosts are kept lowercase ASCII (IDN in punycode).
public struct DomainPattern: Sendable, Hashable, CustomStringConvertible {
    /// The host (without `*.`), lowercase ASCII.
    public var host: String
    public var wildcard: Bool

    public init(host: String, wildcard: Bool) {
        self.host = host
        self.wildcard = wildcard
    }

    /// Parses `example.com` or `*.example.com`; Unicode labels are converted to punycode.
    public init?(parsing text: String) {
        let wildcard = text.hasPrefix("*.")
        let rest = wildcard ? String(text.dropFirst(2)) : text
        guard let host = HostNormalizer.normalize(rest), !host.hasPrefix("[") else { return nil }
        self.init(host: host, wildcard: wildcard)
    }

    /// Whether a normalised host matches.
    public func matches(_ candidate: String) -> Bool {
        if wildcard {
            return candidate.count > host.count + 1 && candidate.hasSuffix("." + host)
        }
        return candidate == host
    }

    public var description: String { wildcard ? "*." + host : host }
}
