import DBusKit
import DeeplinkerCore

/// The handlers of `GetLinkClaims` and `SetDomainVerification` (SPEC §3, §10 "Domain association").
/// The daemon never touches the network: `deeplinker verify` fetches the association files and
/// records what it found here.
extension Daemon {
    /// Every claim (app, domain) of the loaded route files with its verdict as of now.
    static func getLinkClaims(_ a: In.None, _ c: CallContext, _ core: isolated DaemonCore) -> Reply<Out.LinkClaims> {
        .value(Out.LinkClaims(rows: core.linkClaims(scope: c.scope)))
    }

    /// Records a check made by `deeplinker verify`, or the user's approval (`approved`) or its
    /// revocation (`unchecked`), durably; replies once it is stored.
    static func setDomainVerification(_ a: In.DomainVerification, _ c: CallContext, _ core: isolated DaemonCore) throws(DeeplinkerError)
        -> Reply<Out.None>
    {
        let commit = try core.recordDomainCheck(appID: a.appID, domain: a.domain, verdict: a.verdict, detail: a.detail)
        return .afterCommit(.success(Out.None()), commit)
    }
}

/// One claim: an app and one of its `domains` (normalised).
struct DomainClaim: Hashable, Sendable {
    let appID: String
    let domain: String
    init(_ appID: String, _ domain: String) { (self.appID, self.domain) = (appID, domain) }
}

extension DaemonCore {
    /// The claims of the apps in `scope`, by app id, in each app's `domains` order; a claim never
    /// checked shows ``DomainCheck/uncheckedVerdict`` and `checked_at` 0.
    func linkClaims(scope: Access.Scope) -> [Out.LinkClaims.Row] {
        let now = configuration.clock.nowMicroseconds()
        var rows: [Out.LinkClaims.Row] = []
        for appID in registry.appIDs where scope.contains(appID) {
            guard let config = try? registry.config(appID) else { continue }
            for domain in config.domains.map(\.description) {
                if let check = domainChecks[DomainClaim(appID, domain)] {
                    let (verdict, detail) = check.shown(at: now)
                    rows.append(.init(appID: appID, domain: domain, verdict: verdict, detail: detail, checkedAt: check.checkedAt))
                } else {
                    rows.append(.init(appID: appID, domain: domain, verdict: DomainCheck.uncheckedVerdict, detail: "never checked", checkedAt: 0))
                }
            }
        }
        return rows
    }

    /// `SetDomainVerification`: the app must be loaded and `domain` one of its `domains`.
    func recordDomainCheck(appID: String, domain: String, verdict: String, detail: String) throws(DeeplinkerError) -> PendingCommit {
        guard let parsed = DomainVerdict(rawValue: verdict) else {
            throw .invalidParameter(name: "verdict", value: verdict, reason: "must be verified, not-listed, unreachable, approved or unchecked")
        }
        guard registry.contains(appID) else { throw .unknownApp(appID) }
        let claimed = try registry.config(appID).domains
        guard let pattern = DomainPattern(parsing: domain), claimed.contains(pattern) else {
            let list = claimed.isEmpty ? "it claims none" : "it claims " + claimed.map(\.description).joined(separator: ", ")
            throw .invalidParameter(name: "domain", value: domain, reason: "is not in the domains of \(appID) (\(list))")
        }
        let claim = DomainClaim(appID, pattern.description)
        let check = DomainCheck.recording(
            parsed, detail: detail, appID: appID, domain: claim.domain, at: configuration.clock.nowMicroseconds(),
            previous: domainChecks[claim])
        if check.verdict != parsed {
            logger.info("domain check: \(appID) \(claim.domain) \(verdict) not recorded: the user approved it")
        } else {
            logger.info("domain check: \(appID) \(claim.domain) \(verdict)\(detail.isEmpty ? "" : ": \(detail)")")
        }
        // Memory changes with the commit (SPEC §6): a refused write leaves the verdict as it was.
        let commit = store.enqueue([.domainCheck(check)])
        commit.whenWritten { outcome in
            guard case .success = outcome else { return }
            self.onLoop { $0.domainChecks[claim] = check }
        }
        return commit
    }
}
