import Foundation

/// A fresh directory under the system temp dir, removed when the value is released.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("deeplinker-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    func appending(_ component: String) -> String {
        (path as NSString).appendingPathComponent(component)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
