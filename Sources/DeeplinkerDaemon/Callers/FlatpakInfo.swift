import DeeplinkerCore

/// The part of a Flatpak sandbox's `/.flatpak-info` (a GLib key file) that identifies the app:
/// `[Application] name`. Pure: text in; the key-file syntax is ``DesktopFile``'s.
public struct FlatpakInfo: Sendable, Hashable {
    public let appID: String

    public init(parsing text: String) throws(FlatpakInfoError) {
        let file: DesktopFile
        do {
            file = try DesktopFile(parsing: text)
        } catch {
            throw .malformed(error)
        }
        guard let name = file.value("name", in: "Application") else { throw .noApplicationName }
        guard AppID.isValid(name) else { throw .invalidAppID(name) }
        appID = name
    }
}

/// Why a `.flatpak-info` text names no app.
public enum FlatpakInfoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not a key file; the error carries the line and column.
    case malformed(DesktopFileError)
    /// No `name` key in an `[Application]` group.
    case noApplicationName
    /// `[Application] name` is not an app id (SPEC §1).
    case invalidAppID(String)

    public var description: String {
        switch self {
        case .malformed(let error): ".flatpak-info is not a key file: \(error)"
        case .noApplicationName: ".flatpak-info has no [Application] name"
        case .invalidAppID(let name): ".flatpak-info names \"\(name)\", which is not an app id"
        }
    }
}
