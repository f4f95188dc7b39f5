/// Where route files are looked for (SPEC §5), computed purely from flags and environment so the
/// daemon and the offline CLI (`deeplinker check`, `deeplinker route`) agree.
public enum RouteSearchPath {
    /// `--config-dir DIR` if given (only it); else `$XDG_CONFIG_HOME/deeplinker/apps` (default
    /// `~/.config`), then `deeplinker/apps` under each of `$XDG_DATA_DIRS` (default
    /// `/usr/local/share:/usr/share`). Relative XDG paths are ignored, as the XDG spec says.
    public static func directories(configDir: String?, environment: [String: String]) -> [String] {
        if let configDir { return [configDir] }
        var directories: [String] = []
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            directories.append(join(config, "deeplinker/apps"))
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            directories.append(join(home, ".config/deeplinker/apps"))
        }
        let dataDirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        for dir in dataDirs.split(separator: ":") where dir.hasPrefix("/") {
            directories.append(join(String(dir), "deeplinker/apps"))
        }
        return directories
    }

    /// `directory/child` without doubling a trailing slash.
    public static func join(_ directory: String, _ child: String) -> String {
        directory.hasSuffix("/") ? directory + child : directory + "/" + child
    }
}
