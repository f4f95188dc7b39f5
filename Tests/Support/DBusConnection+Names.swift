import DBusKit

extension DBusConnection {
    /// The owner of `name` once it has one (`NameOwnerChanged`, no polling); fails after `timeout`.
    @discardableResult
    public func waitForOwner(_ name: String, timeout: Duration = .seconds(20)) async throws -> String {
        let owners = Recorder<String>()
        let id = try await onNameOwnerChanged(name: name) { _, _, owner in owners.put(owner) }
        defer { unsubscribe(id) }
        if let owner = try await nameOwner(name) { return owner }
        return try await owners.first(timeout: timeout) { !$0.isEmpty }
    }

    /// Returns once `name` has no owner; fails after `timeout`.
    public func waitUntilUnowned(_ name: String, timeout: Duration = .seconds(20)) async throws {
        let owners = Recorder<String>()
        let id = try await onNameOwnerChanged(name: name) { _, _, owner in owners.put(owner) }
        defer { unsubscribe(id) }
        if try await nameOwner(name) == nil { return }
        _ = try await owners.first(timeout: timeout) { $0.isEmpty }
    }
}
