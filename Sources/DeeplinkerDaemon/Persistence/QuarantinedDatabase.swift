/// A state database set aside at start-up because it could not be used (corrupt, unreadable, or
/// from a newer schema): where it was, where it went, and why (SPEC §4, faults survived alone).
public struct QuarantinedDatabase: Sendable, Equatable, CustomStringConvertible {
    /// The database's path, where an empty one is now.
    public var originalPath: String
    /// `<name>.corrupt-<UTC timestamp>`; its `-wal` and `-shm` (if any) sit beside it with those suffixes.
    public var renamedPath: String
    /// What was wrong with it.
    public var reason: String

    /// The error log line: both paths and the reason.
    public var description: String {
        "state database '\(originalPath)' could not be used (\(reason)); renamed it to '\(renamedPath)' "
            + "(with its -wal and -shm) and started with an empty state"
    }
}
