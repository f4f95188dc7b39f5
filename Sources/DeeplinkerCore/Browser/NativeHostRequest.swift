/// A message from the browser extension to the native host (SPEC §10).
public enum NativeHostRequest: Sendable, Hashable {
    /// `{"type": "claims"}`: which (app, domain) claims are verified.
    case claims
    /// `{"type": "open", "url": U, "from": PAGE_URL}`: hand a clicked link to its app.
    case open(url: String, from: String?)

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
        default:
            throw .unknownType(String(type.prefix(64)))
        }
    }
}
