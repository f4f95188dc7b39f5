import DBusKit
import DeeplinkerClient
import DeeplinkerCore
import DeeplinkerProtocol
import FoundationEssentials
import Spawn

/// The native host's side of the daemon: the claims, and `OpenURL("", url)` for a link the policy
/// lets through. Connects on first use, so a bad frame never opens a bus connection.
final class NativeHostDaemon: @unchecked Sendable {
    /// Each call's time-out: the browser waits for the reply, so a hung daemon must not hold it.
    static let callTimeout: Duration = .seconds(5)

    private let busAddress: String?
    private let configDir: String?
    /// Touched only by the session's one task, one message at a time.
    private var proxy: DeeplinkerProxy?
    /// Apps whose verdicts this host has already had checked again.
    private var reverified: Set<String> = []

    init(busAddress: String?, configDir: String?) {
        self.busAddress = busAddress
        self.configDir = configDir
    }

    deinit { proxy?.connection.close() }

    /// The answer to one request.
    func answer(_ request: NativeHostRequest) async -> NativeHostReply {
        switch request {
        case .claims:
            do {
                let claims = try await linkClaims()
                reverifyStale(claims)
                return NativeHostPolicy.claimsReply(claims, names: appNames())
            } catch {
                let (reason, detail) = refusal(error)
                return .unavailable(reason: reason, detail: detail)
            }
        case .approve(let appID, let domain), .revoke(let appID, let domain):
            let approve = if case .approve = request { true } else { false }
            do {
                try await connected().setDomainVerification(
                    appID: appID, domain: domain, verdict: approve ? DomainVerdict.approved.rawValue : DomainVerdict.unchecked.rawValue,
                    detail: approve ? "approved by the user in the browser" : "approval revoked by the user in the browser")
                return NativeHostPolicy.claimsReply(try await linkClaims(), names: appNames())
            } catch {
                let (reason, detail) = refusal(error)
                return .unavailable(reason: reason, detail: detail)
            }
        case .open(let url, _):
            do {
                switch NativeHostPolicy.decide(url: url, claims: try await linkClaims()) {
                case .refuse(let reason, let detail):
                    return .notHandled(reason: reason, detail: detail)
                case .open(let appID):
                    let reply = try await connected().openURL(appID: "", url: url)
                    return .handled(appID: appID, invocationID: reply.invocationID)
                }
            } catch {
                let (reason, detail) = refusal(error)
                return .notHandled(reason: reason, detail: detail)
            }
        }
    }

    /// The daemon's `GetLinkClaims`, as the policy reads them.
    func linkClaims() async throws(DBusError) -> [NativeHostClaim] {
        try await connected().linkClaims().map {
            NativeHostClaim(
                appID: $0.appID, domain: $0.domain, verdict: $0.verdict, detail: $0.detail,
                checkedAtMicroseconds: $0.checkedAtMicroseconds)
        }
    }

    /// Whether this `deeplinker` has the `verify` verb, which checks a domain's association file.
    static let canVerify = DeeplinkerCommand.configuration.subcommands.contains { $0.configuration.commandName == "verify" }

    /// Starts `deeplinker verify APP` in a session of its own for each app with a verdict older
    /// than 7 days, once per app and host; the reply does not wait for it (the next claims do).
    private func reverifyStale(_ claims: [NativeHostClaim]) {
        guard Self.canVerify, let executable = try? DesktopInstallation.executable(option: nil) else { return }
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        for app in NativeHostPolicy.appsToReverify(claims, now: now) where reverified.insert(app).inserted {
            // stdout is the browser's channel: the check's own output must not reach it.
            _ = try? ChildProcess(
                executable: executable, arguments: ["verify", app] + (busAddress.map { ["--bus-address", $0] } ?? []),
                standardInput: .null, standardOutput: .null, standardError: .inherit, newSession: true)
        }
    }

    /// Display names from the route files (offline, as `check` reads them).
    private func appNames() -> [String: String] {
        RouteFiles.registry(configDir: configDir).registry.apps.compactMapValues(\.name)
    }

    private func connected() throws(DBusError) -> DeeplinkerProxy {
        if let proxy { return proxy }
        let made = try DeeplinkerProxy(busAddress: busAddress, timeout: Self.callTimeout)
        proxy = made
        return made
    }

    /// `Self.refusal(error)`; when the daemon cannot be reached the connection is dropped, so the
    /// next message of this long-lived host connects again (the bus may have restarted).
    private func refusal(_ error: DBusError) -> (reason: String, detail: String) {
        let refusal = Self.refusal(error)
        if refusal.reason == "daemon-down" {
            proxy?.connection.close()
            proxy = nil
        }
        return refusal
    }

    /// A failed daemon call as a reason and detail the extension can show: `daemon-down` when
    /// the daemon cannot be reached (or did not answer in time), else the short error name (`NoRoute`).
    static func refusal(_ error: DBusError) -> (reason: String, detail: String) {
        if error.isDaemonNotRunning || error.name == DBusError.noReplyName {
            return ("daemon-down", "the Deeplinker daemon is not reachable (\(error.name): \(error.message))")
        }
        return (error.deeplinkerErrorName ?? error.name, error.message)
    }
}
