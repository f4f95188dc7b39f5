/// One line of a desktop-entry file as written: a blank line, a comment, or a `key=value` entry.
/// `raw` is the line exactly as it was read (without its newline), so rendering is lossless.
public enum DesktopFileLine: Sendable, Hashable {
    case blank(raw: String)
    case comment(raw: String)
    /// `key` includes its locale (`Name[fr]`); `value` is the text after `=` and any spaces,
    /// still escaped as written (`\s`, `\n`, ...).
    case entry(key: String, value: String, raw: String)

    /// The line's text as it appears in the file.
    public var raw: String {
        switch self {
        case .blank(let raw), .comment(let raw), .entry(_, _, let raw): raw
        }
    }

    /// The entry's key (with locale), nil for blank lines and comments.
    public var key: String? {
        if case .entry(let key, _, _) = self { key } else { nil }
    }

    /// A new entry line `key=value`, `value` already escaped.
    public static func entry(_ key: String, rawValue: String) -> DesktopFileLine {
        .entry(key: key, value: rawValue, raw: key + "=" + rawValue)
    }
}
