/// A parsed route path such as `/recipe/:id` or `/files/*rest`: literal segments, `:name` captures
/// of one segment, and a trailing `*name` capturing one or more segments.
public struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    /// One segment of a pattern.
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case capture(String)
        case rest(String)
    }

    /// The pattern as written (trailing `/` removed).
    public var text: String
    public var segments: [Segment]

    public var description: String { text }

    /// Number of literal segments (more is more specific).
    public var literalCount: Int { segments.reduce(0) { if case .literal = $1 { $0 + 1 } else { $0 } } }
    /// Number of `:name` and `*name` captures (fewer is more specific).
    public var captureCount: Int { segments.count - literalCount }
    /// Names of all captures, in order.
    public var captureNames: [String] {
        segments.compactMap {
            switch $0 {
            case .literal: nil
            case .capture(let n), .rest(let n): n
            }
        }
    }

    /// The pattern with capture names erased: two routes with the same shape match the same URLs.
    public var shape: String {
        "/" + segments.map {
            switch $0 {
            case .literal(let s): s
            case .capture: ":"
            case .rest: "*"
            }
        }.joined(separator: "/")
    }

    /// Parses a pattern; the error message says what is wrong.
    public init(parsing text: String) throws(PatternError) {
        guard text.hasPrefix("/") else { throw PatternError("must start with '/'") }
        var body = text.dropFirst()
        if body.hasSuffix("/") { body = body.dropLast() }
        self.text = "/" + body
        segments = []
        guard !body.isEmpty else { return }
        let parts = body.split(separator: "/", omittingEmptySubsequences: false)
        for (i, part) in parts.enumerated() {
            guard !part.isEmpty else { throw PatternError("empty segment ('//')") }
            if part.hasPrefix(":") || part.hasPrefix("*") {
                let name = String(part.dropFirst())
                guard TargetSchema.isValidParameterName(name) else {
                    throw PatternError("invalid capture name '\(part)' (use letters, digits, '_', '-', '.')")
                }
                if captureNames.contains(name) { throw PatternError("capture name '\(name)' is used twice") }
                if part.hasPrefix("*") {
                    guard i == parts.count - 1 else { throw PatternError("'\(part)' must be the last segment") }
                    segments.append(.rest(name))
                } else {
                    segments.append(.capture(name))
                }
            } else {
                if part == "." || part == ".." { throw PatternError("'\(part)' segments never match") }
                for scalar in part.unicodeScalars {
                    let v = scalar.value
                    if v < 0x21 || v == 0x7F || (v >= 0x80 && v <= 0x9F) || "%?#\\".unicodeScalars.contains(scalar)
                        || URLCharacterRules.isBidiControl(v) {
                        throw PatternError("invalid character '\(scalar.escaped(asASCII: true))' in segment '\(part)'")
                    }
                }
                segments.append(.literal(String(part)))
            }
        }
    }

    /// Why a pattern could not be parsed.
    public struct PatternError: Error, Sendable {
        public var message: String
        init(_ message: String) { self.message = message }
    }
}
