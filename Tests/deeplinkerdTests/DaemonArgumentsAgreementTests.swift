import ArgumentParser
import DeeplinkerDaemon
import Testing
@testable import deeplinkerd

/// `deeplinkerd` parses an ordinary command line with ``DaemonArguments`` and everything else with
/// ArgumentParser; the two must not drift apart. Each vector goes through both, and both must give
/// the same verdict: start with these options, or not a plain start (help, version, an error,
/// a hidden flag).
@Suite("deeplinkerd's two parsers")
struct DaemonArgumentsAgreementTests {
    enum Verdict: Equatable, CustomStringConvertible {
        case start(DaemonArguments)
        case notAPlainStart

        var description: String {
            switch self {
            case .start(let a): "start(config \(a.configDirectory ?? "-"), state \(a.stateDirectory ?? "-"), bus \(a.busAddress ?? "-"), log \(a.logLevel ?? "-"))"
            case .notAPlainStart: "not a plain start"
            }
        }
    }

    static func fastPath(_ arguments: [String]) -> Verdict {
        DaemonArguments.parse(arguments).map(Verdict.start) ?? .notAPlainStart
    }

    static func argumentParser(_ arguments: [String]) -> Verdict {
        guard let command = try? Deeplinkerd.parse(arguments), !command.printIntrospection else { return .notAPlainStart }
        return .start(DaemonArguments(
            configDirectory: command.configDir, stateDirectory: command.stateDir, busAddress: command.busAddress, logLevel: command.logLevel))
    }

    static let vectors: [(arguments: [String], expected: Verdict)] = [
        ([], .start(DaemonArguments())),
        (["--config-dir", "/c"], .start(DaemonArguments(configDirectory: "/c"))),
        (["--config-dir=/c"], .start(DaemonArguments(configDirectory: "/c"))),
        (["--state-dir", "/s", "--bus-address", "unix:path=/b", "--log-level", "debug"],
         .start(DaemonArguments(stateDirectory: "/s", busAddress: "unix:path=/b", logLevel: "debug"))),
        (["--bus-address=unix:path=/a,guid=b=c"], .start(DaemonArguments(busAddress: "unix:path=/a,guid=b=c"))),
        (["--log-level=trace", "--config-dir", "with space"], .start(DaemonArguments(configDirectory: "with space", logLevel: "trace"))),
        (["--log-level", "critical"], .start(DaemonArguments(logLevel: "critical"))),
        (["--help"], .notAPlainStart),
        (["-h"], .notAPlainStart),
        (["--version"], .notAPlainStart),
        (["--print-introspection"], .notAPlainStart),
        (["--generate-completion-script", "bash"], .notAPlainStart),
        (["--log-level", "loud"], .notAPlainStart),
        (["--log-level=LOUD"], .notAPlainStart),
        (["--log-level"], .notAPlainStart),
        (["--config-dir"], .notAPlainStart),
        (["--config-dir", "--state-dir", "/s"], .notAPlainStart),
        (["--config-dir", "-x"], .notAPlainStart),
        (["--unknown", "x"], .notAPlainStart),
        (["--unknown=x"], .notAPlainStart),
        (["-c", "/c"], .notAPlainStart),
        (["positional"], .notAPlainStart),
        (["--config-dir", "/c", "extra"], .notAPlainStart),
        (["--", "--config-dir", "/c"], .notAPlainStart),
        (["--Config-Dir", "/c"], .notAPlainStart),
        (["--config-dir", "/a", "--config-dir", "/b"], .start(DaemonArguments(configDirectory: "/b"))),
        (["--log-level=debug", "--log-level", "error"], .start(DaemonArguments(logLevel: "error"))),
        (["--config-dir="], .notAPlainStart),
        (["--config-dir", ""], .start(DaemonArguments(configDirectory: ""))),
    ]

    @Test("DaemonArguments and ArgumentParser give the same verdict on every vector", arguments: vectors.indices)
    func sameVerdict(index: Int) {
        let (arguments, expected) = Self.vectors[index]
        let fast = Self.fastPath(arguments)
        let parser = Self.argumentParser(arguments)
        #expect(fast == parser, "\(arguments): DaemonArguments says \(fast), ArgumentParser says \(parser)")
        #expect(fast == expected, "\(arguments): DaemonArguments says \(fast), expected \(expected)")
    }

    @Test("every option DaemonArguments knows is one ArgumentParser declares, and the other way round")
    func sameOptions() {
        for option in DaemonOption.allCases {
            let value = option == .logLevel ? "info" : "/v"
            let vector = ["--" + option.rawValue, value]
            #expect(Self.fastPath(vector) == Self.argumentParser(vector), "\(vector)")
            #expect(Self.fastPath(vector) != .notAPlainStart, "\(vector)")
        }
        for level in DaemonOption.logLevels {
            #expect(Self.fastPath(["--log-level", level]) == Self.argumentParser(["--log-level", level]), "\(level)")
        }
    }
}
