import Logging

/// `deeplinkerd`'s options that take a value, named once: ArgumentParser's declaration (help,
/// completions, man page) and the start-up fast path (``DaemonArguments``) both use these names.
public enum DaemonOption: String, CaseIterable, Sendable {
    case configDirectory = "config-dir"
    case stateDirectory = "state-dir"
    case busAddress = "bus-address"
    case logLevel = "log-level"

    /// The log levels `--log-level` accepts: swift-log's, lowest first.
    public static let logLevels = Logger.Level.allCases.map(\.rawValue)
}
