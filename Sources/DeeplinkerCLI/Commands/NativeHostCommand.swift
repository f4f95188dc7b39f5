import ArgumentParser
import DeeplinkerCore
import Glibc

/// `deeplinker native-host` (SPEC §10): the browsers' native messaging host
/// `org.deeplinker.native_host`, started by Chromium or Firefox through the manifest that
/// `install-browser` writes.
struct NativeHostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "native-host",
        abstract: "Speak the browsers' native messaging protocol for the Deeplinker extension.",
        discussion: """
            Reads messages on stdin and answers on stdout, each a 32-bit length in native byte
            order and then UTF-8 JSON (at most 64 MiB in, 1 MiB out):
              {"type": "claims"}                      -> the verified (or approved) claims, and apart
                                                         the unverified ones, each with its verdict
              {"type": "open", "url": U, "from": P}   -> OpenURL("", U) if U's domain is verified
                                                         (or approved) for the app that claims it
              {"type": "approve", "app": A, "domain": D}  -> records "approved", then the claims
              {"type": "revoke", "app": A, "domain": D}   -> records "unchecked", then the claims
            One host serves the extension's whole session: it answers each message in order and
            reads the daemon's claims afresh for each, so a new verdict counts at once.
            A broken or unknown message gets {"type": "error", ...}; a length over the limit or
            input that ends inside a message ends the host (exit 15) with a message on stderr.
            It exits 0 when the browser closes stdin. Browsers start it through the wrapper that
            `deeplinker install-browser` writes, passing their own arguments (ignored).
            """)

    /// What the browser passes (the extension's origin, or Firefox's manifest path and add-on id).
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var browserArguments: [String] = []

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        // A browser that closes the pipe must end the host with a status, not a signal.
        signal(SIGPIPE, SIG_IGN)
        let daemon = NativeHostDaemon(busAddress: options.busAddress, configDir: options.configDir)
        let session = NativeHostSession(answer: { await daemon.answer($0) })
        switch await session.run() {
        case .endOfInput, .outputClosed:
            return
        case .fatal(let error):
            throw CLIFailure(.browserProtocol, "native-host: \(error)")
        case .readFailed(let reason):
            throw CLIFailure(.browserProtocol, "native-host: cannot read stdin: \(reason)")
        }
    }
}
