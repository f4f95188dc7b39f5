import Foundation

/// Files a test reads and writes: the repository's own (shipped route files, units, XML) and the
/// ones it makes in its temporary directories. The one place tests read a file as UTF-8.
public enum TestFiles {
    /// The repository root (this file is Tests/Support/TestFiles.swift).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The path of `relative` in the repository (e.g. `Config/apps`).
    public static func repository(_ relative: String) -> String {
        repositoryRoot.appendingPathComponent(relative).path
    }

    /// The file's text (UTF-8; invalid bytes become U+FFFD), read to its end (also a `/proc`
    /// file, whose size says 0); throws when it cannot be read.
    public static func read(_ path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
    }

    /// The file's text, or nil when there is no such file (or it cannot be read).
    public static func readIfPresent(_ path: String) -> String? {
        try? read(path)
    }

    /// Writes `text` to `path`, creating the directories above it.
    public static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Writes `<applications>/<appID>.desktop` for an app whose windows carry no app id, only the
    /// window class `wmClass`, which the entry's `StartupWMClass` maps to it (the focus tests).
    public static func writeBareDesktopEntry(appID: String, name: String, wmClass: String, in applications: String) throws {
        try write("""
            [Desktop Entry]
            Type=Application
            Name=\(name)
            Exec=/bin/true
            StartupWMClass=\(wmClass)

            """, to: applications + "/\(appID).desktop")
    }
}
