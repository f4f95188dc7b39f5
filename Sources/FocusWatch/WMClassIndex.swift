import DeeplinkerCore
import FoundationEssentials

/// Desktop entries by `StartupWMClass`, from the `applications` directories in launcher order
/// (the first entry with a desktop-file id wins, as for launchers). Entries Deeplinker wrote
/// from nothing are skipped; an override keeps the installed entry's keys, so it maps the same.
public struct WMClassIndex: Sendable {
    /// `StartupWMClass` → app id (the desktop-file id without `.desktop`).
    public private(set) var appIDs: [String: String] = [:]

    public init(environment: [String: String]) {
        var seen = Set<String>()
        for directory in DesktopEntryLocator.applicationDirectories(environment: environment) {
            for (id, path) in Self.entries(in: directory) where seen.insert(id).inserted {
                guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                      let file = try? DesktopFile(parsing: text),
                      file.value("Hidden") != "true",
                      file.value(DesktopEntryLocator.generatedKey) == nil,
                      let wmClass = file.value("StartupWMClass"), !wmClass.isEmpty
                else { continue }
                if appIDs[wmClass] == nil { appIDs[wmClass] = id }
            }
        }
    }

    /// The app whose entry names one of `wmClass` (class first, then instance).
    public func appID(forWMClass wmClass: [String]) -> String? {
        for name in wmClass.reversed() where !name.isEmpty {
            if let id = appIDs[name] { return id }
        }
        return nil
    }

    /// `(desktop-file id, path)` of each entry under `directory`: sub-directories join the id with `-`.
    static func entries(in directory: String) -> [(String, String)] {
        var out: [(String, String)] = []
        collect(directory, prefix: [], into: &out)
        return out.sorted { $0.0 < $1.0 }
    }

    private static func collect(_ directory: String, prefix: [String], into out: inout [(String, String)]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names {
            let path = directory + "/" + name
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory {
                // Bounded depth: launchers' entries are at most a few folders down.
                if prefix.count < 4 { collect(path, prefix: prefix + [name], into: &out) }
            } else if name.hasSuffix(".desktop") {
                out.append(((prefix + [String(name.dropLast(8))]).joined(separator: "-"), path))
            }
        }
    }
}
