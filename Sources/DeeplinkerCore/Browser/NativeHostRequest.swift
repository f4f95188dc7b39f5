/// A message from the browser extension to the native host (SPEC §10).
public enum NativeHostRequest: Sendable, Hashable {
    /// `{"type": "claims"}`: which (app, domain) claims are verified.
    case claims
    /// `{"type": "open", "url": U, "from": PAGE_URL}`: hand a clicked link to its app.
    case open(url: String, from: String?)
    /// `{"type": "approve", "app": ID, "domain": D}`: the user approved the app for a domain it
    /// claims (sent by the extension's popup only, after the user's click).
    case approve(appID: String, domain: String)
    /// `{"type": "revoke", "app": ID, "domain": D}`: the user took the approval back.
    case revoke(appID: String, domain: String)

    /// Parses one payload; any problem is a non-fatal `NativeMessageError` naming it.
    public static func parse(_ payload: [UInt8]) throws(NativeMessageError) -> NativeHostRequest {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes: payload, maxBytes: NativeMessageFraming.maxIncoming)
        } catch {
            if case .invalidPayload(let reason) = error { throw .invalidJSON(reason) }
            throw .invalidJSON(error.message)
        }
        guard case .object(let members) = value else { throw .invalidMessage("the message is not a JSON object") }
        guard let typeValue = members["type"] else { throw .invalidMessage("the message has no \"type\"") }
        guard case .string(let type) = typeValue else { throw .invalidMessage("\"type\" is not a string") }
        switch type {
        case "claims":
            return .claims
        case "open":
            guard case .string(let url)? = members["url"], !url.isEmpty else {
                throw .invalidMessage("an open message needs \"url\", a non-empty string")
            }
            let from: String?
            switch members["from"] {
            case nil, .null?: from = nil
            case .string(let page)?: from = page
            default: throw .invalidMessage("\"from\" is not a string")
            }
            return .open(url: url, from: from)
        case "approve", "revoke":
            guard case .string(let app)? = members["app"], !app.isEmpty else {
                throw .invalidMessage("an \(type) message needs \"app\", a non-empty string")
            }
            guard case .string(let domain)? = members["domain"], !domain.isEmpty else {
                throw .invalidMessage("an \(type) message needs \"domain\", a non-empty string")
            }
            return type == "approve" ? .approve(appID: app, domain: domain) : .revoke(appID: app, domain: domain)
        default:
            throw .unknownType(String(type.prefix(64)))
        }
    }
}
