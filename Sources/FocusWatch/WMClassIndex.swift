import DeeplinkerCore
import Foundation

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
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var out: [(String, String)] = []
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".desktop") else { continue }
            let id = String(relative.dropLast(8)).replacingOccurrences(of: "/", with: "-")
            out.append((id, directory + "/" + relative))
        }
        return out.sorted { $0.0 < $1.0 }
    }
}
