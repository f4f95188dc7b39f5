extension ChildProcess {
    /// Where one of the child's standard descriptors goes.
    public enum Stream: Sendable {
        /// This process's own descriptor.
        case inherit
        /// `/dev/null`.
        case null
        /// A new pipe; the parent's end is in ``ChildProcess/standardInput`` and the like.
        case pipe
        /// A copy of one of this process's descriptors (say, stderr for a child's stdout).
        case descriptor(Int32)
    }
}
