import DeeplinkerDaemon
import Testing

/// The start-up fast path of `deeplinkerd`'s options: what it takes itself, and everything it
/// leaves to ArgumentParser (nil).
@Suite struct DaemonArgumentsTests {
    @Test func knownOptionsInBothForms() {
        let parsed = DaemonArguments.parse([
            "--config-dir", "/etc/deeplinker", "--state-dir=/var/lib/x=y", "--bus-address", "unix:path=/run/bus,guid=1", "--log-level=debug",
        ])
        #expect(parsed == DaemonArguments(
            configDirectory: "/etc/deeplinker", stateDirectory: "/var/lib/x=y", busAddress: "unix:path=/run/bus,guid=1", logLevel: "debug"))
    }

    @Test func noArgumentsIsAnOrdinaryStart() {
        #expect(DaemonArguments.parse([]) == DaemonArguments())
    }

    @Test("left to ArgumentParser", arguments: [
        ["--help"], ["-h"], ["--version"], ["--generate-completion-script", "bash"], ["--print-introspection"],
        ["--config"], ["--config-dir"], ["--config-dir", "--state-dir", "/s"], ["--state-dir="],
        ["--log-level", "loud"], ["--log-level=Info"], ["positional"], ["--config-dir", "/c", "extra"], ["-c", "/c"],
    ])
    func leftToArgumentParser(arguments: [String]) {
        #expect(DaemonArguments.parse(arguments) == nil)
    }

    @Test("a repeated option keeps its last value, as ArgumentParser does")
    func repeatedOptionKeepsTheLast() {
        #expect(DaemonArguments.parse(["--state-dir", "/a", "--state-dir=/b"]) == DaemonArguments(stateDirectory: "/b"))
    }

    @Test func everyLogLevelOfSwiftLogIsAccepted() {
        for level in DaemonOption.logLevels {
            #expect(DaemonArguments.parse(["--log-level", level])?[.logLevel] == level)
        }
    }
}
