import DeeplinkerProtocol
import DeeplinkerCore
import FoundationEssentials

/// Finds and loads route files (`<app-id>.toml`, SPEC §5) for the daemon and the CLI alike, so
/// `deeplinker check` says exactly what the daemon will do: the search path, first file found wins
/// per app id, and per-app isolation — a broken file yields a `ConfigError` for that app only, and
/// on reload that app keeps its previous config. The only part of routing that touches the disk.
public enum RouteDirectory {
    /// Route files larger than this are refused (a route file is a few KiB).
    public static let maxFileBytes = 1 << 20

    /// The result of reading every route file on a search path.
    public struct LoadResult: Sendable {
        /// Files that parsed, by app id.
        public var configs: [String: AppConfig] = [:]
        /// The winning file of every app id found, parsed or not.
        public var files: [String: String] = [:]
        /// App ids whose winning file is broken.
        public var failedAppIDs: Set<String> = []
        /// Every problem, in search-path and file-name order.
        public var errors: [ConfigError] = []
        /// The `RouteFileDigest` of each app's winning file as read, parsed or not (absent when
        /// it could not be read).
        public var digests: [String: UInt64] = [:]

        public init() {}
    }

    /// The search path (see `RouteSearchPath`): `--config-dir` alone, else the XDG directories.
    public static func searchPath(configDir: String?, environment: [String: String]) -> [String] {
        RouteSearchPath.directories(configDir: configDir, environment: environment)
    }

    /// Every `.toml` file on the search path, in search-path and name order (shadowed ones too);
    /// missing directories are skipped, hidden files and other extensions ignored.
    public static func routeFiles(in directories: [String]) -> [String] {
        directories.flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
                .filter { $0.hasSuffix(".toml") && !$0.hasPrefix(".") }
                .map { join(directory, $0) }
        }
    }

    /// The app id a route file's name gives (`com.example.App.toml` → `com.example.App`).
    public static func appID(ofFile path: String) -> String {
        let name = lastPathComponent(path)
        return name.hasSuffix(".toml") ? String(name.dropLast(5)) : name
    }

    /// `<app-id>.toml` files per app id, the first directory holding one winning; file names that
    /// are not valid app ids are reported.
    public static func discover(in directories: [String]) -> (files: [String: String], errors: [ConfigError]) {
        var files: [String: String] = [:]
        var errors: [ConfigError] = []
        for path in routeFiles(in: directories) {
            let appID = appID(ofFile: path)
            guard AppID.isValid(appID) else {
                errors.append(invalidName(path))
                continue
            }
            if files[appID] == nil { files[appID] = path }
        }
        return (files, errors)
    }

    /// The last component of `path` as `NSString.lastPathComponent` has it (trailing slashes
    /// ignored), without Foundation's ICU-backed half.
    static func lastPathComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? (path.hasPrefix("/") ? "/" : "")
    }

    /// The refusal of a file whose name is not `<app-id>.toml` with a valid app id.
    static func invalidName(_ path: String) -> ConfigError {
        let name = lastPathComponent(path)
        return ConfigError(
            file: path, line: 1, column: 1, message: "file name \"\(name)\" is not <app-id>.toml with a valid app id (e.g. com.example.App.toml)")
    }

    /// Reads and parses one route file, its app id from its name (which must be a valid one).
    public static func loadFile(_ path: String) -> Result<AppConfig, ConfigError> {
        let appID = appID(ofFile: path)
        guard AppID.isValid(appID) else { return .failure(invalidName(path)) }
        return loadFile(path, appID: appID)
    }

    /// Reads and parses one route file: the size is checked before anything is read.
    public static func loadFile(_ path: String, appID: String) -> Result<AppConfig, ConfigError> {
        readFile(path, appID: appID).result
    }

    /// ``loadFile(_:appID:)`` with the digest of the bytes read (nil when none could be).
    static func readFile(_ path: String, appID: String) -> (digest: UInt64?, result: Result<AppConfig, ConfigError>) {
        let bytes: [UInt8]
        switch TextFile.bytes(atPath: path, limit: maxFileBytes) {
        case .success(let read): bytes = read
        case .failure(let failure): return (nil, .failure(readError(path, failure)))
        }
        let digest = RouteFileDigest.of(bytes)
        guard let text = String(validating: bytes, as: UTF8.self) else { return (digest, .failure(readError(path, .notUTF8))) }
        return (digest, Result { () throws(ConfigError) -> AppConfig in try RouteFileParser.parse(text, appID: appID, file: path) })
    }

    /// A file that could not be read as text, as a `ConfigError` at its start.
    static func readError(_ path: String, _ failure: TextFile.Failure) -> ConfigError {
        let message = switch failure {
        case .tooLarge, .notUTF8: failure.reason
        case .unreadable, .notARegularFile: "cannot read the file: \(failure.reason)"
        }
        return ConfigError(file: path, line: 1, column: 1, message: message)
    }

    /// Discovers and loads every route file on the search path.
    public static func load(directories: [String]) -> LoadResult {
        var result = LoadResult()
        let (files, discoveryErrors) = discover(in: directories)
        result.files = files
        result.errors = discoveryErrors
        for appID in files.keys.sorted() {
            let (digest, loaded) = readFile(files[appID]!, appID: appID)
            result.digests[appID] = digest
            switch loaded {
            case .success(let config): result.configs[appID] = config
            case .failure(let error):
                result.failedAppIDs.insert(appID)
                result.errors.append(error)
            }
        }
        return result
    }

    /// The registry after a (re)load: apps that parsed take their new config, apps whose file is
    /// broken keep their previous config (if they had one), apps whose file is gone are dropped.
    /// Returns the errors to report (`Reload` replies with them).
    public static func merge(_ result: LoadResult, over previous: AppRegistry) -> (registry: AppRegistry, errors: [ConfigError]) {
        var configs = Array(result.configs.values)
        for appID in result.failedAppIDs {
            if let old = previous.apps[appID] { configs.append(old) }
        }
        return (AppRegistry(configs), result.errors)
    }

    /// What the daemon serves after a (re)load merged as ``merge(_:over:)`` does: an app that
    /// parsed serves its file as read; an app whose file is broken keeps the digest it served
    /// before (0 when it never loaded) with the new error. Sorted by app id.
    public static func served(_ result: LoadResult, over previous: [ServedRouteFile]) -> [ServedRouteFile] {
        let before = Dictionary(previous.map { ($0.appID, $0) }, uniquingKeysWith: { first, _ in first })
        let errors = Dictionary(result.errors.map { ($0.file, $0.description) }, uniquingKeysWith: { first, _ in first })
        return result.files.keys.sorted().map { appID in
            let path = result.files[appID]!
            if result.configs[appID] != nil {
                return ServedRouteFile(path: path, appID: appID, digest: result.digests[appID] ?? 0, error: "")
            }
            return ServedRouteFile(path: path, appID: appID, digest: before[appID]?.digest ?? 0, error: errors[path] ?? "the file did not load")
        }
    }

    private static func join(_ directory: String, _ child: String) -> String {
        RouteSearchPath.join(directory, child)
    }
}
