import Foundation
import Testing

/// The suites behind the safety promises (power cuts and a failed sync on a FUSE file system, the
/// bus thread traced with strace) need what a machine may lack. There they skip, except under
/// `DEEPLINKER_REQUIRE_SAFETY_SUITES=1` (`.ci/run` sets it), where they fail instead.
public enum SafetySuite {
    /// The variable that turns a skip into a failure.
    public static let variable = "DEEPLINKER_REQUIRE_SAFETY_SUITES"

    /// Whether a safety suite that cannot run here fails rather than skips.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment[variable] == "1" }

    /// Why a required safety suite could not run.
    struct Unavailable: Error, CustomStringConvertible {
        let reason: String
        var description: String { "\(reason); \(SafetySuite.variable)=1 requires this safety suite to run" }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a safety suite where `isAvailable`; elsewhere skips it with `reason`, or fails it (the
    /// trait throws) under `DEEPLINKER_REQUIRE_SAFETY_SUITES=1`.
    public static func safetySuite(
        if isAvailable: @autoclosure @escaping @Sendable () -> Bool, _ reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Self {
        .enabled(Comment(rawValue: reason), sourceLocation: sourceLocation) {
            if isAvailable() { return true }
            if SafetySuite.isRequired { throw SafetySuite.Unavailable(reason: reason) }
            return false
        }
    }
}
