/// Finds desktop entries the way launchers (GIO) do, on the XDG data path, and tells the entries
/// Deeplinker wrote from the app's own. Pure: the environment and a file reader are injected.
public enum DesktopEntryLocator {
    /// Marks an override Deeplinker derived from an installed entry; its value is that entry's path.
    public static let sourceKey = "X-Deeplinker-Source"
    /// Marks an entry Deeplinker wrote from nothing (the minimal entry, the scheme handler).
    public static let generatedKey = "X-Deeplinker-Generated"

    /// The `applications` directories in launcher order: `$XDG_DATA_HOME/applications` (default
    /// `$HOME/.local/share/applications`), then each of `$XDG_DATA_DIRS` (default
    /// `/usr/local/share:/usr/share`) + `/applications`. Relative entries are ignored, as the
    /// XDG Base Directory spec says; duplicates keep their first place.
    public static func applicationDirectories(environment: [String: String]) -> [String] {
        var directories: [String] = []
        if let home = dataHome(environment: environment) { directories.append(home) }
        let configured = environment["XDG_DATA_DIRS"].map { $0.split(separator: ":").map(String.init) } ?? []
        let dataDirs = configured.filter { $0.hasPrefix("/") }
        for dir in dataDirs.isEmpty ? ["/usr/local/share", "/usr/share"] : dataDirs {
            directories.append(trimmingSlash(dir))
        }
        var seen = Set<String>()
        return directories.map { $0 + "/applications" }.filter { seen.insert($0).inserted }
    }

    /// `$XDG_DATA_HOME` when absolute, else `$HOME/.local/share`; nil when neither is absolute.
    public static func dataHome(environment: [String: String]) -> String? {
        if let configured = environment["XDG_DATA_HOME"], configured.hasPrefix("/") { return trimmingSlash(configured) }
        if let home = environment["HOME"], home.hasPrefix("/") { return trimmingSlash(home) + "/.local/share" }
        return nil
    }

    /// `$XDG_DATA_HOME/applications`, where Deeplinker writes its entries.
    public static func userApplicationsDirectory(environment: [String: String]) -> String? {
        dataHome(environment: environment).map { $0 + "/applications" }
    }

    /// Whether Deeplinker wrote `file`: it carries `X-Deeplinker-Source` or `X-Deeplinker-Generated`, or
    /// (the first version's unmarked entries) its `Exec` runs `deeplinker`.
    public static func isDeeplinkerEntry(_ file: DesktopFile) -> Bool {
        guard let main = file.group(DesktopFile.mainGroup) else { return false }
        if main.rawValue(sourceKey) != nil || main.rawValue(generatedKey) != nil { return true }
        // Entries of the first version carried no mark; an app's own entry never runs deeplinker.
        let program = file.value("Exec").flatMap { DesktopEntry.execArguments($0)?.first }
        return program.map { $0.split(separator: "/").last == "deeplinker" } ?? false
    }

    /// The app's own installed `<app-id>.desktop`, searched in `applicationDirectories` order,
    /// skipping what Deeplinker wrote: an override is followed to its `X-Deeplinker-Source`; the
    /// minimal entry is passed over (only an installed entry below it counts). An entry that does
    /// not parse is passed over, as GIO does; one with `Hidden=true` means the app is deleted (nil).
    public static func installedEntry(appID: String, environment: [String: String], read: (String) -> String?) -> LocatedDesktopEntry? {
        for directory in applicationDirectories(environment: environment) {
            let path = directory + "/" + appID + ".desktop"
            guard let entry = parse(path, read: read) else { continue }
            if isDeeplinkerEntry(entry.file) {
                if let source = entry.file.value(sourceKey), source.hasPrefix("/"), source != path,
                   let installed = parse(source, read: read), !isDeeplinkerEntry(installed.file) {
                    return installed.file.value("Hidden") == "true" ? nil : installed
                }
                continue
            }
            return entry.file.value("Hidden") == "true" ? nil : entry
        }
        return nil
    }

    /// The entry Deeplinker wrote for the app in `$XDG_DATA_HOME/applications`, if one is there.
    public static func writtenEntry(appID: String, environment: [String: String], read: (String) -> String?) -> LocatedDesktopEntry? {
        guard let directory = userApplicationsDirectory(environment: environment),
              let entry = parse(directory + "/" + appID + ".desktop", read: read),
              isDeeplinkerEntry(entry.file) else { return nil }
        return entry
    }

    private static func parse(_ path: String, read: (String) -> String?) -> LocatedDesktopEntry? {
        guard let text = read(path), let file = try? DesktopFile(parsing: text),
              file.groups.first == DesktopFile.mainGroup else { return nil }
        return LocatedDesktopEntry(path: path, file: file)
    }

    private static func trimmingSlash(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
