/// A URL that passed every rule of SPEC §4, split into what routing needs: scheme, normalised host
/// (https), decoded path segments and query items. Custom schemes carry their host as the first segment.
public struct ValidatedURL: Sendable, Hashable {
    /// The input as given.
    public let original: String
    /// The input with raw non-ASCII and unsafe characters percent-encoded and the host normalised.
    public let normalized: String
    /// Lowercase scheme.
    public let scheme: String
    /// Normalised host of an http(s) URL (lowercase, punycode); nil for custom schemes.
    public let host: String?
    /// Explicit port of an http(s) URL.
    public let port: Int?
    /// Percent-decoded path segments (empty segments dropped, so a trailing `/` is ignored).
    public let segments: [String]
    /// Query items in order, decoded.
    public let queryItems: [QueryItem]

    /// Whether this is a web (http/https) URL rather than a custom-scheme URL.
    public var isWeb: Bool { Self.isWebScheme(scheme) }

    /// The one rule of what a universal link is: an `https` or `http` scheme, in any case.
    public static func isWebScheme(_ scheme: some StringProtocol) -> Bool {
        scheme.lowercased() == "https" || scheme.lowercased() == "http"
    }

    /// Whether `text` names a web scheme, read before (or without) validating it: an input
    /// recorded as `universal-link` rather than `url`.
    public static func isWeb(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        return isWebScheme(text[..<colon])
    }

    /// The path the segments make, for messages (`/recipe/12`).
    public var path: String { "/" + segments.joined(separator: "/") }

    /// Validates `string`; throws `TooLarge` or `InvalidURL` naming the problem.
    public init(_ string: String) throws(DeeplinkerError) {
        let size = string.utf8.count
        guard size <= Limits.urlBytes else { throw .tooLarge(what: "URL", size: size, limit: Limits.urlBytes) }
        do {
            self = try Self.parse(string)
        } catch let problem as URLProblem {
            throw .invalidURL(string, reason: problem.reason)
        } catch let error as DeeplinkerError {
            throw error
        } catch {
            throw .invalidURL(string, reason: "\(error)")
        }
    }

    private init(original: String, normalized: String, scheme: String, host: String?, port: Int?, segments: [String], queryItems: [QueryItem]) {
        self.original = original
        self.normalized = normalized
        self.scheme = scheme
        self.host = host
        self.port = port
        self.segments = segments
        self.queryItems = queryItems
    }

    private static func parse(_ string: String) throws -> ValidatedURL {
        for scalar in string.unicodeScalars {
            if URLCharacterRules.isControl(scalar.value) {
                throw URLProblem("control character U+\(URLCharacterRules.hex4(scalar.value))")
            }
            if URLCharacterRules.isBidiControl(scalar.value) {
                throw URLProblem("bidirectional control character U+\(URLCharacterRules.hex4(scalar.value))")
            }
        }
        let bytes = Array(string.utf8)

        // Scheme.
        guard let colon = bytes.firstIndex(of: 0x3A), colon > 0, isAlpha(bytes[0]),
              bytes[1..<colon].allSatisfy({ isAlpha($0) || isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { throw URLProblem("missing or invalid scheme") }
        let scheme = String(decoding: bytes[0..<colon], as: UTF8.self).lowercased()
        let isWeb = Self.isWebScheme(scheme)
        var rest = bytes[(colon + 1)...]

        // Authority.
        guard rest.starts(with: [0x2F, 0x2F]) else {
            throw URLProblem(isWeb ? "missing '//' and host" : "custom-scheme URL without '//'")
        }
        rest = rest.dropFirst(2)
        let authorityEnd = rest.firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? rest.endIndex
        let authority = rest[rest.startIndex..<authorityEnd]
        rest = rest[authorityEnd...]
        if authority.contains(0x40) { throw URLProblem("user-info is not allowed") }

        // Path, query, fragment.
        let fragmentStart = rest.firstIndex(of: 0x23) ?? rest.endIndex
        let beforeFragment = rest[rest.startIndex..<fragmentStart]
        let queryStart = beforeFragment.firstIndex(of: 0x3F)
        let rawPath = beforeFragment[beforeFragment.startIndex..<(queryStart ?? beforeFragment.endIndex)]
        let rawQuery = queryStart.map { beforeFragment[($0 + 1)...] }
        let rawFragment = fragmentStart < rest.endIndex ? rest[(fragmentStart + 1)...] : nil

        var host: String?
        var port: Int?
        var normalizedAuthority: [UInt8]
        var segments: [String] = []
        if isWeb {
            var hostBytes = authority
            if let bracketEnd = authority.lastIndex(of: 0x5D), authority.first == 0x5B {
                hostBytes = authority[authority.startIndex...bracketEnd]
                let after = authority[(bracketEnd + 1)...]
                if !after.isEmpty {
                    guard after.first == 0x3A else { throw URLProblem("invalid host") }
                    port = try parsePort(after.dropFirst())
                }
            } else if let portColon = authority.lastIndex(of: 0x3A) {
                hostBytes = authority[authority.startIndex..<portColon]
                port = try parsePort(authority[(portColon + 1)...])
            }
            guard !hostBytes.isEmpty else { throw URLProblem("missing host") }
            let hostText = String(decoding: hostBytes, as: UTF8.self)
            guard let normalizedHost = HostNormalizer.normalize(hostText) else {
                throw URLProblem("invalid host '\(hostText)'")
            }
            host = normalizedHost
            normalizedAuthority = Array(normalizedHost.utf8)
            if let port { normalizedAuthority += Array(":\(port)".utf8) }
        } else {
            if authority.contains(0x3A) { throw URLProblem("custom-scheme URL with a port") }
            normalizedAuthority = try normalize(authority)
            if !normalizedAuthority.isEmpty { segments.append(try decodeSegment(normalizedAuthority[...])) }
        }

        let path = try normalize(rawPath)
        for raw in path.split(separator: 0x2F, omittingEmptySubsequences: true) {
            segments.append(try decodeSegment(raw))
        }

        var queryItems: [QueryItem] = []
        var normalizedQuery: [UInt8]?
        if let rawQuery {
            let query = try normalize(rawQuery)
            normalizedQuery = query
            for item in query.split(separator: 0x26, omittingEmptySubsequences: true) {
                guard queryItems.count < Limits.queryItems else {
                    let count = query.split(separator: 0x26, omittingEmptySubsequences: true).count
                    throw DeeplinkerError.tooLarge(what: "URL query (items)", size: count, limit: Limits.queryItems)
                }
                let eq = item.firstIndex(of: 0x3D)
                let name = try decodeText(item[item.startIndex..<(eq ?? item.endIndex)], what: "query item")
                let value = try eq.map { try decodeText(item[($0 + 1)...], what: "query item '\(name)'") } ?? ""
                queryItems.append(QueryItem(name: name, value: value))
            }
        }
        var normalizedFragment: [UInt8]?
        if let rawFragment {
            let fragment = try normalize(rawFragment)
            if let bad = URLCharacterRules.forbiddenCharacter(inDecoded: PercentEncoding.decode(fragment[...])) {
                throw URLProblem("\(bad) in the fragment")
            }
            normalizedFragment = fragment
        }

        var normalized = Array(scheme.utf8) + [0x3A, 0x2F, 0x2F] + normalizedAuthority + path
        if let normalizedQuery { normalized += [0x3F] + normalizedQuery }
        if let normalizedFragment { normalized += [0x23] + normalizedFragment }
        return ValidatedURL(
            original: string, normalized: String(decoding: normalized, as: UTF8.self), scheme: scheme, host: host,
            port: port, segments: segments, queryItems: queryItems)
    }

    private static func isAlpha(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private static func parsePort(_ bytes: ArraySlice<UInt8>) throws -> Int? {
        if bytes.isEmpty { return nil }
        guard bytes.count <= 5, bytes.allSatisfy(isDigit), let value = Int(String(decoding: bytes, as: UTF8.self)),
              value <= 65535
        else { throw URLProblem("invalid port '\(String(decoding: bytes, as: UTF8.self))'") }
        return value
    }

    private static func normalize(_ bytes: ArraySlice<UInt8>) throws -> [UInt8] {
        try PercentEncoding.normalize(bytes)
    }

    /// Decodes one path segment and refuses control characters, invalid UTF-8 and dot segments
    /// (also inside a value that held `%2F`).
    private static func decodeSegment(_ raw: ArraySlice<UInt8>) throws -> String {
        let text = try decodeText(raw, what: "path segment")
        var partLength = 0, dots = 0
        for b in text.utf8 {
            if b == 0x2F {
                if partLength > 0, partLength == dots, dots <= 2 { throw URLProblem("'.' or '..' path segment") }
                partLength = 0
                dots = 0
            } else {
                partLength += 1
                if b == 0x2E { dots += 1 }
            }
        }
        if partLength > 0, partLength == dots, dots <= 2 { throw URLProblem("'.' or '..' path segment") }
        return text
    }

    private static func decodeText(_ raw: ArraySlice<UInt8>, what: String) throws -> String {
        // Normalised raw bytes are printable ASCII (controls were refused up front): no escapes, no work.
        if !raw.contains(0x25) { return String(decoding: raw, as: UTF8.self) }
        let decoded = PercentEncoding.decode(raw)
        if let bad = URLCharacterRules.forbiddenCharacter(inDecoded: decoded) { throw URLProblem("\(bad) in a \(what)") }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw URLProblem("\(what) '\(String(decoding: raw, as: UTF8.self))' is not valid UTF-8 when decoded")
        }
        return text
    }
}
