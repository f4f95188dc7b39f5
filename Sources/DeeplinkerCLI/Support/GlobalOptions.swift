import ArgumentParser

/// Options every verb takes.
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(name: .customLong("bus-address"), help: ArgumentHelp("Talk to the daemon on the bus at ADDR instead of the session bus.", valueName: "ADDR"))
    public var busAddress: String?

    @Flag(name: .long, help: "Print machine-readable JSON (one document per line).")
    public var json = false

    @Option(name: .customLong("config-dir"), help: ArgumentHelp("Read route files only from DIR (offline verbs).", valueName: "DIR"))
    public var configDir: String?

    public init() {}
}
