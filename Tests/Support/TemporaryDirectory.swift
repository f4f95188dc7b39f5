import Foundation

/// A fresh directory under the system temp dir, removed with everything in it when the value is
/// released or, in the scoped form ``with(_:)``, when the body returns or throws. The one
/// temporary-directory helper of every test target.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init(prefix: String = "deeplinker-test") throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(12))")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func appending(_ component: String) -> String {
        (path as NSString).appendingPathComponent(component)
    }

    /// Runs `body` with a fresh directory that is removed afterwards, whether `body` returns or throws.
    public static func with<T>(prefix: String = "deeplinker-test", _ body: (TemporaryDirectory) throws -> T) throws -> T {
        let directory = try TemporaryDirectory(prefix: prefix)
        return try withExtendedLifetime(directory) { try body(directory) }
    }

    /// Runs `body` with a fresh directory that is removed afterwards, whether `body` returns or throws.
    public static func with<T>(
        prefix: String = "deeplinker-test", _ body: (TemporaryDirectory) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory(prefix: prefix)
        do {
            let result = try await body(directory)
            directory.remove()
            return result
        } catch {
            directory.remove()
            throw error
        }
    }

    /// Removes the directory now (also done on release).
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    deinit { remove() }
}
