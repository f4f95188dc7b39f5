/// The domain association file (SPEC §10): where it is, and what a fetch of it means for a claim.
/// Pure: the fetch itself is `deeplinker verify`'s (the daemon never touches the network).
public enum AssociationFile {
    /// The file's path on every host.
    public static let path = "/.well-known/deeplinker-app-links.json"
    /// The most a fetch reads; a longer file is a failure.
    public static let maximumBytes = 128 * 1024
    /// The time-out of a whole fetch, in seconds.
    public static let timeoutSeconds = 10

    /// The URL that decides a claim: `https://x/.well-known/…` for `x` and for `*.x`.
    public static func url(for claim: DomainPattern) -> String {
        "https://\(claim.host)\(path)"
    }

    /// What the file says about `appID` for `claim`: `verified` when it lists the app (with
    /// `"subdomains": true` for a `*.x` claim), else `not-listed` with the reason.
    public static func verdict(body: [UInt8], appID: String, claim: DomainPattern) -> (verdict: DomainVerdict, detail: String) {
        let file: JSONValue
        do {
            file = try JSONParser.parse(bytes: body, maxBytes: maximumBytes, maxDepth: 16)
        } catch {
            if case .invalidPayload(let reason) = error { return (.notListed, "broken JSON: \(reason)") }
            return (.notListed, "broken JSON: \(error.message)")
        }
        guard case .object(let members) = file, case .array(let apps)? = members["apps"] else {
            return (.notListed, "not of the form {\"apps\": [{\"id\": …}]}: no \"apps\" array")
        }
        var ids: [String] = []
        for case .object(let entry) in apps {
            guard case .string(let id)? = entry["id"] else { continue }
            guard id == appID else {
                ids.append(id)
                continue
            }
            let subdomains = entry["subdomains"] == .bool(true)
            if claim.wildcard && !subdomains {
                return (.notListed, "\(url(for: claim)) lists \(appID) without \"subdomains\": true, which a \(claim) claim needs")
            }
            return (.verified, "listed in \(url(for: claim))" + (claim.wildcard ? " with subdomains" : ""))
        }
        let listed = ids.isEmpty ? "no app" : ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? " and \(ids.count - 5) more" : "")
        return (.notListed, "\(url(for: claim)) does not list \(appID) (it lists \(listed))")
    }

    /// The verdict on a fetch: a body is judged by ``verdict(body:appID:claim:)``, a failure is
    /// `unreachable` with its detail.
    public static func verdict(fetch: Result<[UInt8], FetchFailure>, appID: String, claim: DomainPattern) -> (verdict: DomainVerdict, detail: String) {
        switch fetch {
        case .success(let body): verdict(body: body, appID: appID, claim: claim)
        case .failure(let failure): (.unreachable, failure.description)
        }
    }
}

/// Why a fetch of an association file gave no body; each names the layer that failed.
public enum FetchFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host name did not resolve.
    case dns(host: String, reason: String)
    /// No TCP connection (refused, unreachable network, time-out while connecting).
    case tcp(host: String, reason: String)
    /// The TLS handshake or the certificate check failed.
    case tls(host: String, reason: String)
    /// An answer other than 200 (a 3xx is ``redirect(status:location:)``).
    case httpStatus(Int)
    /// A redirect, which is never followed.
    case redirect(status: Int, location: String)
    /// The body is longer than ``AssociationFile/maximumBytes``.
    case tooLarge(limit: Int)
    /// No complete answer within ``AssociationFile/timeoutSeconds``.
    case timeout(seconds: Int)
    /// Anything else the HTTP client reports.
    case other(String)

    public var description: String {
        switch self {
        case .dns(let host, let reason): "DNS: \(host) does not resolve: \(reason)"
        case .tcp(let host, let reason): "TCP: no connection to \(host):443: \(reason)"
        case .tls(let host, let reason): "TLS: \(host): \(reason)"
        case .httpStatus(let status): "HTTP: status \(status), not 200"
        case .redirect(let status, let location):
            "HTTP: status \(status) redirects to \(location.isEmpty ? "(no Location)" : location); redirects are not followed"
        case .tooLarge(let limit): "HTTP: the file is larger than \(limit / 1024) KiB"
        case .timeout(let seconds): "timed out after \(seconds) s"
        case .other(let what): what
        }
    }
}
