#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A program could not be started: `posix_spawn` (or making its pipes) failed with `code`.
public struct SpawnError: Error, Sendable, CustomStringConvertible {
    public let executable: String
    /// The `errno` value (`ENOENT` for a missing program, `EACCES` for one that is not executable).
    public let code: Int32

    public var description: String {
        "cannot run \(executable): \(String(cString: strerror(code)))"
    }
}
