/// The options of an ordinary start (by the unit, by bus activation, by `scripts/run-daemon`),
/// parsed without swift-argument-parser.
///
/// ArgumentParser finds a command's options by reflection, which costs about 70 protocol
/// conformance look-ups, each a scan of the executable's 6,500 conformance records: about 1 ms of
/// CPU of a 15 ms cold-start budget (counted with a gdb breakpoint on
/// `swift_conformsToProtocolMaybeInstantiateSuperclasses`, timed with `perf record` over
/// `deeplinker-bench coldstart`; docs/performance.md, "Cold start"). So a command line made only
/// of known options with valid values takes this path, and anything else (`--help`, `--version`,
/// completion scripts, an unknown option, a missing or bad value) gets nil, and ArgumentParser
/// parses it and gives its usual answer or refusal. Where both accept a command line they read the
/// same options from it (a repeated option: the last value), which `DaemonArgumentsAgreementTests`
/// checks.
public struct DaemonArguments: Equatable, Sendable {
    // Four stored options rather than a dictionary: a `[DaemonOption: String]` is a generic type
    // the runtime instantiates on first use, with conformance scans this path exists to avoid.
    public var configDirectory: String?
    public var stateDirectory: String?
    public var busAddress: String?
    public var logLevel: String?

    public init(configDirectory: String? = nil, stateDirectory: String? = nil, busAddress: String? = nil, logLevel: String? = nil) {
        self.configDirectory = configDirectory
        self.stateDirectory = stateDirectory
        self.busAddress = busAddress
        self.logLevel = logLevel
    }

    public subscript(option: DaemonOption) -> String? {
        get {
            switch option {
            case .configDirectory: configDirectory
            case .stateDirectory: stateDirectory
            case .busAddress: busAddress
            case .logLevel: logLevel
            }
        }
        set {
            switch option {
            case .configDirectory: configDirectory = newValue
            case .stateDirectory: stateDirectory = newValue
            case .busAddress: busAddress = newValue
            case .logLevel: logLevel = newValue
            }
        }
    }

    /// `arguments` without the program name: `--name value` or `--name=value` pairs of
    /// ``DaemonOption``s (a repeated one keeps its last value; `--name=` with nothing after the `=`
    /// is a missing value); nil for anything else.
    public static func parse(_ arguments: [String]) -> DaemonArguments? {
        var parsed = DaemonArguments()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            guard argument.hasPrefix("--") else { return nil }
            let body = argument.dropFirst(2)
            let name: Substring
            let value: String
            if let equals = body.firstIndex(of: "=") {
                name = body[..<equals]
                value = String(body[body.index(after: equals)...])
                guard !value.isEmpty else { return nil }
            } else {
                name = body
                index += 1
                // A value that looks like an option is what ArgumentParser reports as missing.
                guard index < arguments.endIndex, !arguments[index].hasPrefix("-") else { return nil }
                value = arguments[index]
            }
            guard let option = DaemonOption(rawValue: String(name)) else { return nil }
            if option == .logLevel && !DaemonOption.logLevels.contains(value) { return nil }
            parsed[option] = value
            index += 1
        }
        return parsed
    }
}
