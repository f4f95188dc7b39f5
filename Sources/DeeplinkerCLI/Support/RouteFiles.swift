import DeeplinkerCore
import Foundation
import DeeplinkerProtocol

/// Finds and parses route files for the offline verbs (`check`, `route`, `desktop-entry`), with
/// the daemon's search path (SPEC §5): `--config-dir` alone, else `$XDG_CONFIG_HOME/deeplinker/apps`,
/// then `deeplinker/apps` under each of `$XDG_DATA_DIRS`.
public enum RouteFiles {
    /// The directories searched, in order: the daemon's (`RouteSearchPath`).
    public static func searchPath(configDir: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        RouteSearchPath.directories(configDir: configDir, environment: environment)
    }

    /// The winning `<app-id>.toml` per app id (first directory wins), plus every file found in
    /// search-path order.
    public static func discover(in directories: [String]) -> (winners: [String: String], all: [String]) {
        var winners: [String: String] = [:]
        var all: [String] = []
        for directory in directories {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names.sorted() where name.hasSuffix(".toml") && !name.hasPrefix(".") {
                let path = (directory as NSString).appendingPathComponent(name)
                all.append(path)
                let appID = String(name.dropLast(5))
                if winners[appID] == nil { winners[appID] = path }
            }
        }
        return (winners, all)
    }

    /// The app id a route file's name gives (`com.example.App.toml` → `com.example.App`).
    public static func appID(ofFile path: String) -> String {
        let name = (path as NSString).lastPathComponent
        return name.hasSuffix(".toml") ? String(name.dropLast(5)) : name
    }

    /// Reads and parses one file; problems are `ConfigError`s located in the file.
    public static func load(_ path: String) -> Result<AppConfig, ConfigError> {
        let appID = appID(ofFile: path)
        guard AppID.isValid(appID) else {
            return .failure(ConfigError(file: path, line: 1, column: 1, message: "file name is not <app-id>.toml with a valid app id (e.g. com.example.App.toml)"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ConfigError(file: path, line: 1, column: 1, message: "cannot read the file"))
        }
        guard data.count <= 1 << 20 else {
            return .failure(ConfigError(file: path, line: 1, column: 1, message: "the file is larger than 1 MiB"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(ConfigError(file: path, line: 1, column: 1, message: "the file is not valid UTF-8"))
        }
        return Result { () throws(ConfigError) -> AppConfig in try RouteFileParser.parse(text, appID: appID, file: path) }
    }

    /// Every app that parses on the search path, as a registry, with the problems found.
    public static func registry(configDir: String?) -> (registry: AppRegistry, errors: [ConfigError], directories: [String]) {
        let directories = searchPath(configDir: configDir)
        var configs: [AppConfig] = []
        var errors: [ConfigError] = []
        for (_, path) in discover(in: directories).winners.sorted(by: { $0.key < $1.key }) {
            switch load(path) {
            case .success(let config): configs.append(config)
            case .failure(let error): errors.append(error)
            }
        }
        return (AppRegistry(configs), errors, directories)
    }

    /// The config of one app from the search path, or a failure naming where it looked.
    public static func config(appID: String, configDir: String?) throws(CLIFailure) -> AppConfig {
        let directories = searchPath(configDir: configDir)
        guard let path = discover(in: directories).winners[appID] else {
            throw CLIFailure(
                .unknownApp, "UnknownApp: no route file \(appID).toml in \(directories.joined(separator: ", "))",
                errorName: DeeplinkerBus.errorName("UnknownApp"))
        }
        switch load(path) {
        case .success(let config): return config
        case .failure(let error): throw CLIFailure(.configError, error.description, errorName: DeeplinkerBus.errorName("InvalidConfig"))
        }
    }
}
