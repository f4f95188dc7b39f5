/// A desktop entry found on disk: where it is and what it says.
public struct LocatedDesktopEntry: Sendable, Hashable {
    public var path: String
    public var file: DesktopFile

    public init(path: String, file: DesktopFile) {
        self.path = path
        self.file = file
    }
}
