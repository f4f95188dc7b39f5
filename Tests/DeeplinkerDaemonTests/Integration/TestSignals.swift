import Synchronization

/// One `InvocationChanged(s app_id, s invocation_id, s status, s detail)` signal.
struct InvocationChange: Sendable, Hashable, CustomStringConvertible {
    let appID: String
    let id: String
    let status: String
    let detail: String

    var description: String { "\(appID) \(id) \(status) \(detail)" }
}

/// One `Deliver(s app_id, s invocation_id, s source, s target, a{ss} parameters)` signal.
struct DeliverSignal: Sendable, Hashable {
    let appID: String
    let id: String
    let source: String
    let target: String
    let parameters: [String: String]
}

/// A value behind a lock, shareable by reference (a `Mutex` itself cannot be captured).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value { mutex.withLock { $0 } }

    func set(_ value: Value) { mutex.withLock { $0 = value } }

    func mutate<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}
