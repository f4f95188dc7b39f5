import DeeplinkerCore
import Logging

extension DaemonCore {
    /// Logs each invocation outcome once it is stored (SPEC §9): app id, invocation id, source and
    /// target, plus the detail `InvocationChanged` also carries. Never parameter values or payloads.
    func logOutcomes(_ effects: [EngineEffect]) {
        for effect in effects {
            guard case .statusChanged(let invocation) = effect else { continue }
            var (level, outcome) = Self.outcome(invocation.status)
            // Back to pending after a failed attempt: not a new invocation.
            if invocation.status == .pending && invocation.attempts > 0 { (level, outcome) = (.info, "pending again") }
            logger.log(level: level, "\(Self.describe(invocation)) \(outcome)\(invocation.detail.isEmpty ? "" : ": \(invocation.detail)")")
        }
    }

    /// The level and verb of a status: final failures at warning, a delivery in flight at debug.
    nonisolated static func outcome(_ status: InvocationStatus) -> (Logger.Level, String) {
        switch status {
        case .pending: (.info, "stored")
        case .delivering: (.debug, "delivering")
        case .delivered: (.info, "delivered")
        case .superseded: (.info, "superseded")
        case .expired: (.info, "expired")
        case .discarded: (.info, "discarded")
        case .failed: (.warning, "failed")
        case .rejected: (.notice, "rejected")
        }
    }

    /// `invocation ID of APP (source S, target T)`: the identifying fields only.
    nonisolated static func describe(_ invocation: Invocation) -> String {
        "invocation \(invocation.id) of \(invocation.appID) (source \(invocation.source.rawValue), target \(invocation.route?.target ?? "none"))"
    }

    /// Logs one delivery attempt: acknowledged at debug (the `delivered` outcome follows at info),
    /// a refusal or a time-out at warning.
    nonisolated static func logDelivery(_ attempt: DeliveryAttempt, _ outcome: DeliveryOutcome, logger: Logger) {
        let what = "delivery attempt \(attempt.attempt) of \(describe(attempt.invocation))"
        switch outcome {
        case .acknowledged: logger.debug("\(what) acknowledged")
        case .refused(let why): logger.warning("\(what) failed: the app refused (\(why))")
        case .timedOut: logger.warning("\(what) failed: no acknowledgement within \(attempt.timeout)")
        case .noOwner: logger.notice("\(what) found no owner of \(attempt.invocation.appID); it waits for the app")
        }
    }
}
