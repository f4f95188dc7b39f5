/// A target's entry in a route file's `[open]` table (SPEC §5): the URI that `delivery = "open"`
/// hands to `org.freedesktop.Application.Open`, with `{parameter}` placeholders filled in.
public struct OpenTemplate: Sendable, Hashable {
    /// One piece of the template: literal URI text or a parameter's value.
    public enum Piece: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    /// The template as written.
    public let text: String
    public let pieces: [Piece]

    /// Why a template is not accepted at load.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        case unclosedBrace
        case emptyPlaceholder
        case undeclaredParameter(String)
        case notAURI(String)

        public var description: String {
            switch self {
            case .unclosedBrace: "a '{' without its '}'"
            case .emptyPlaceholder: "an empty placeholder {}"
            case .undeclaredParameter(let name): "placeholder {\(name)} names no parameter of the target"
            case .notAURI(let why): "it does not make a valid URI: \(why)"
            }
        }
    }

    /// Parses `text`, whose placeholders must name parameters of `target`. The template with each
    /// placeholder filled by a sample value must be a valid URI.
    public init(parsing text: String, target: TargetSchema) throws(Problem) {
        var pieces: [Piece] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { throw .unclosedBrace }
            let name = String(rest[rest.index(after: open)..<close])
            guard !name.isEmpty else { throw .emptyPlaceholder }
            guard target.parameters[name] != nil else { throw .undeclaredParameter(name) }
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
            pieces.append(.parameter(name))
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        self.text = text
        self.pieces = pieces
        let sample = pieces.map { piece in
            switch piece {
            case .literal(let s): s
            case .parameter: "x"
            }
        }.joined()
        if let why = Self.uriProblem(sample) { throw .notAURI(why) }
    }

    /// The placeholders' parameter names, in order.
    public var parameterNames: [String] {
        pieces.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// The URI for `parameters`: each value percent-encoded (all but RFC 3986 unreserved bytes).
    /// A placeholder whose parameter has no value is ``OpenRefusal/missingValue``.
    public func uri(parameters: [String: String], target: String) -> Result<String, OpenRefusal> {
        var out = ""
        for piece in pieces {
            switch piece {
            case .literal(let s): out += s
            case .parameter(let name):
                guard let value = parameters[name] else { return .failure(.missingValue(target: target, parameter: name)) }
                out += Self.percentEncoded(value)
            }
        }
        if let why = Self.uriProblem(out) { return .failure(.notAURI(target: target, why: why)) }
        return .success(out)
    }

    /// Every byte but RFC 3986's unreserved ones (`A-Z a-z 0-9 - . _ ~`) as `%XX`.
    public static func percentEncoded(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for b in value.utf8 {
            let unreserved = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
                || b == 0x2D || b == 0x2E || b == 0x5F || b == 0x7E
            if unreserved {
                bytes.append(b)
            } else {
                bytes += [0x25, hex[Int(b >> 4)], hex[Int(b & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Why `text` is not a URI (RFC 3986: a scheme, `:`, then only URI characters and well-formed
    /// `%XX` escapes), nil when it is one.
    public static func uriProblem(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: 0x3A), colon > 0 else { return "no scheme (expected e.g. \"file:///...\")" }
        let isAlpha = { (b: UInt8) in (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
        let isDigit = { (b: UInt8) in b >= 0x30 && b <= 0x39 }
        guard isAlpha(bytes[0]), bytes[1..<colon].allSatisfy({ isAlpha($0) || isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }) else {
            return "invalid scheme \"\(String(decoding: bytes[..<colon], as: UTF8.self))\""
        }
        // unreserved, gen-delims and sub-delims; '%' is checked below.
        let allowed = Set("-._~:/?#[]@!$&'()*+,;=".utf8)
        var i = colon + 1
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x25 {
                guard i + 2 < bytes.count, PercentEncoding.hexValue(bytes[i + 1]) != nil, PercentEncoding.hexValue(bytes[i + 2]) != nil else {
                    return "malformed percent-encoding at byte \(i + 1)"
                }
                i += 3
                continue
            }
            guard isAlpha(b) || isDigit(b) || allowed.contains(b) else {
                return "character \(b < 0x80 ? "'\(Character(Unicode.Scalar(b)))'" : "byte \(b)") at byte \(i + 1) must be percent-encoded"
            }
            i += 1
        }
        return nil
    }
}

/// Why `delivery = "open"` has no URI for a route: the invocation fails at once with ``detail``
/// (SPEC §3, Delivery). Never a parameter's value.
public enum OpenRefusal: Error, Sendable, Hashable {
    /// A target with no template, and an invocation with no URL of its own.
    case noURL(target: String, source: String)
    case missingValue(target: String, parameter: String)
    case notAURI(target: String, why: String)

    public var detail: String {
        switch self {
        case .noURL(let target, let source):
            "open: target \"\(target)\" has no [open] template and the \(source) invocation has no URL to open"
        case .missingValue(let target, let parameter):
            "open: the [open] template of target \"\(target)\" needs parameter \"\(parameter)\", which the route has no value for"
        case .notAURI(let target, let why):
            "open: the [open] template of target \"\(target)\" did not make a valid URI: \(why)"
        }
    }
}

extension OpenTemplate {
    /// The URI `Open` gets for `route`: the target's template filled in, or for a target without
    /// one the invocation's own URL (`url`, URL sources only).
    public static func uri(for route: Route, templates: [String: OpenTemplate], url: String?) -> Result<String, OpenRefusal> {
        if let template = templates[route.target] {
            return template.uri(parameters: route.parameters, target: route.target)
        }
        guard let url, !url.isEmpty else { return .failure(.noURL(target: route.target, source: route.source.rawValue)) }
        return .success(url)
    }
}

extension AppConfig {
    /// For a `delivery = "open"` app, the URI `Open` gets for `resolved` (what `deeplinker route`
    /// shows); nil for the other delivery modes.
    public func openURI(for resolved: ResolvedRoute) -> Result<String, OpenRefusal>? {
        guard delivery == .open else { return nil }
        return OpenTemplate.uri(for: resolved.route, templates: openTemplates, url: resolved.url)
    }
}
