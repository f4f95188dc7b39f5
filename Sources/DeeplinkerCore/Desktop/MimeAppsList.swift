/// `$XDG_CONFIG_HOME/mimeapps.list` (freedesktop MIME Applications Associations), edited in
/// place: making a desktop id the default for a MIME type, or taking it away, touches only that
/// key and keeps every other line. Pure: text in, text out.
public struct MimeAppsList: Sendable, Hashable {
    /// The group `xdg-mime` and GIO read defaults from.
    public static let defaultsGroup = "Default Applications"

    public var file: DesktopFile

    /// An empty list (no file yet).
    public init() {
        file = DesktopFile()
    }

    /// Parses the file's text; problems carry their line and column.
    public init(parsing text: String) throws(DesktopFileError) {
        file = try DesktopFile(parsing: text)
    }

    /// The default desktop ids for `mimeType`, most preferred first.
    public func defaults(for mimeType: String) -> [String] {
        file.list(mimeType, in: Self.defaultsGroup) ?? []
    }

    /// Every MIME type whose defaults list `desktopID`.
    public func mimeTypes(defaultingTo desktopID: String) -> [String] {
        (file.group(Self.defaultsGroup)?.keys ?? []).filter { defaults(for: $0).contains(desktopID) }
    }

    /// Makes `desktopID` the default for `mimeType`. The previous defaults stay after it as
    /// fallbacks (launchers take the first installed one), so removing it restores them.
    /// Returns whether the text changed.
    @discardableResult
    public mutating func makeDefault(_ desktopID: String, for mimeType: String) -> Bool {
        let current = defaults(for: mimeType)
        guard current.first != desktopID else { return false }
        file.setList([desktopID] + current.filter { $0 != desktopID }, for: mimeType, in: Self.defaultsGroup)
        return true
    }

    /// Takes `desktopID` out of every default list; a key left empty is removed. Returns the MIME
    /// types that changed.
    @discardableResult
    public mutating func removeDefault(_ desktopID: String) -> [String] {
        let changed = mimeTypes(defaultingTo: desktopID)
        for mimeType in changed {
            let rest = defaults(for: mimeType).filter { $0 != desktopID }
            if rest.isEmpty {
                file.removeKey(mimeType, in: Self.defaultsGroup)
            } else {
                file.setList(rest, for: mimeType, in: Self.defaultsGroup)
            }
        }
        return changed
    }

    /// The file's text.
    public func rendered() -> String { file.rendered() }
}
