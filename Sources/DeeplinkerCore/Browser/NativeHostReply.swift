/// A message from the native host to the browser extension (SPEC §10), rendered as compact JSON.
public enum NativeHostReply: Sendable, Hashable {
    /// The verified claims (`verified`, or `approved` by the user), one per (app, domain), and
    /// apart the `unverified` ones (for the popup, which offers their approval); each with its
    /// verdict, `name` the app's display name. Also the answer to `approve` and `revoke`.
    case claims([Claim], unverified: [Claim] = [])
    /// The app took the link.
    case handled(appID: String, invocationID: String)
    /// The browser should go on as usual; `reason` is `not-verified`, an error name (`NoApp`,
    /// `NoRoute`, ...) or `daemon-down`, and `detail` says more.
    case notHandled(reason: String, detail: String)
    /// The message could not be understood.
    case error(NativeMessageError)
    /// A `claims` message could not be answered: `reason` as for `notHandled` (`daemon-down`).
    case unavailable(reason: String, detail: String)

    public struct Claim: Sendable, Hashable {
        public var appID: String
        public var name: String
        public var domain: String
        /// As `GetLinkClaims` shows it: `verified` and `approved` are handed over.
        public var verdict: String
        public var detail: String

        public init(appID: String, name: String, domain: String, verdict: String = "verified", detail: String = "") {
            self.appID = appID
            self.name = name
            self.domain = domain
            self.verdict = verdict
            self.detail = detail
        }

        var json: JSONValue {
            .object([
                "app": .string(appID), "name": .string(name), "domain": .string(domain),
                "verdict": .string(verdict), "detail": .string(detail),
            ])
        }
    }

    /// The reply as a JSON value.
    public var json: JSONValue {
        switch self {
        case .claims(let claims, let unverified):
            .object([
                "type": .string("claims"),
                "claims": .array(claims.map(\.json)),
                "unverified": .array(unverified.map(\.json)),
            ])
        case .handled(let appID, let invocationID):
            .object(["handled": .bool(true), "app": .string(appID), "invocation": .string(invocationID)])
        case .notHandled(let reason, let detail):
            .object(["handled": .bool(false), "reason": .string(reason), "detail": .string(detail)])
        case .error(let error):
            .object(["type": .string("error"), "error": .string(error.code), "detail": .string(error.description)])
        case .unavailable(let reason, let detail):
            .object(["type": .string("error"), "error": .string(reason), "detail": .string(detail)])
        }
    }

    /// The reply's UTF-8 JSON bytes.
    public var payload: [UInt8] { Array(json.rendered.utf8) }

    /// The reply with its length prefix. A claims list over the browser's 1 MiB becomes an
    /// error reply, which always fits.
    public func framed() -> [UInt8] {
        do {
            return try NativeMessageFraming.frame(payload)
        } catch {
            return try! NativeMessageFraming.frame(NativeHostReply.error(error).payload)
        }
    }
}
