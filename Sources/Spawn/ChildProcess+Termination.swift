extension ChildProcess {
    /// How a child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        /// The exit status, or the signal's number (as `Foundation.Process`'s `terminationStatus`).
        public var status: Int32 {
            switch self {
            case .exited(let code), .signalled(let code): code
            }
        }

        public var description: String {
            switch self {
            case .exited(let code): "exited with status \(code)"
            case .signalled(let signal): "ended by signal \(signal)"
            }
        }

        /// Decodes a `waitpid` status (the `WIFEXITED` macros do not reach Swift).
        init(waitStatus: Int32) {
            let signal = waitStatus & 0x7f
            self = signal == 0 ? .exited((waitStatus >> 8) & 0xff) : .signalled(signal)
        }
    }
}
