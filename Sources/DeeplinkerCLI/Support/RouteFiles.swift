import DeeplinkerCore
import DeeplinkerRouteFiles
import FoundationEssentials
import DeeplinkerProtocol

/// Route files for the offline verbs (`check`, `route`, `desktop-entry`, `install-desktop`): the
/// daemon's own loader (`RouteDirectory`), so they see exactly what the daemon will.
public enum RouteFiles {
    /// The directories searched, in order: the daemon's.
    public static func searchPath(configDir: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        RouteDirectory.searchPath(configDir: configDir, environment: environment)
    }

    /// The winning `<app-id>.toml` per app id (first directory wins), plus every file found in
    /// search-path order.
    public static func discover(in directories: [String]) -> (winners: [String: String], all: [String]) {
        (RouteDirectory.discover(in: directories).files, RouteDirectory.routeFiles(in: directories))
    }

    /// The app id a route file's name gives (`com.example.App.toml` → `com.example.App`).
    public static func appID(ofFile path: String) -> String {
        RouteDirectory.appID(ofFile: path)
    }

    /// Reads and parses one file as the daemon would; problems are `ConfigError`s located in the file.
    public static func load(_ path: String) -> Result<AppConfig, ConfigError> {
        RouteDirectory.loadFile(path)
    }

    /// Every app that parses on the search path, as a registry, with the problems found.
    public static func registry(configDir: String?) -> (registry: AppRegistry, errors: [ConfigError], directories: [String]) {
        let directories = searchPath(configDir: configDir)
        let result = RouteDirectory.load(directories: directories)
        return (RouteDirectory.merge(result, over: AppRegistry()).registry, result.errors, directories)
    }

    /// The config of one app from the search path, or a failure naming where it looked.
    public static func config(appID: String, configDir: String?) throws(CLIFailure) -> AppConfig {
        let directories = searchPath(configDir: configDir)
        guard let path = discover(in: directories).winners[appID] else {
            throw CLIFailure(
                .unknownApp, "UnknownApp: no route file \(appID).toml in \(directories.joined(separator: ", "))",
                errorName: DeeplinkerErrorName.unknownApp.dbusName)
        }
        switch RouteDirectory.loadFile(path, appID: appID) {
        case .success(let config): return config
        case .failure(let error): throw CLIFailure(.configError, error.description, errorName: DeeplinkerErrorName.invalidConfig.dbusName)
        }
    }
}
