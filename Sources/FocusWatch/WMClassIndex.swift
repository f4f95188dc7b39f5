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
        func walk(_ relative: String) {
            let path = relative.isEmpty ? directory : directory + "/" + relative
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                let child = relative.isEmpty ? name : relative + "/" + name
                // Not followed through a link to a directory, as FileManager's enumerator does not.
                let type = (try? FileManager.default.attributesOfItem(atPath: directory + "/" + child))?[.type] as? FileAttributeType
                if type == .typeDirectory {
                    walk(child)
                } else if child.hasSuffix(".desktop") {
                    out.append((String(child.dropLast(8)).replacing("/", with: "-"), directory + "/" + child))
                }
            }
        }
        walk("")
        return out.sorted { $0.0 < $1.0 }
    }
}
