import DBusKit
import DeeplinkerCore
import TaskThreads

/// A method's decoded arguments, one stored property per argument of its signature. The type
/// declares the signature once (`arguments`) and reads each value by that name, so the table's
/// introspection and the handler's parameters cannot drift apart.
protocol MethodInput: Sendable {
    static var arguments: [DBusArgument] { get }
    init(_ reader: inout ArgumentReader) throws(DeeplinkerError)
}

/// A method's reply, one stored property per output argument.
protocol MethodOutput: Sendable {
    static var arguments: [DBusArgument] { get }
    var values: [DBusValue] { get }
}

/// Reads a call's values in signature order, holding every string to the 64 KiB limit (SPEC §4).
/// A read under another name or type than the declaration is a programming error, caught by the
/// first test of the method.
struct ArgumentReader {
    private let values: [DBusValue]
    private let declared: [DBusArgument]
    private var index = 0

    init(_ values: [DBusValue], declared: [DBusArgument]) {
        self.values = values
        self.declared = declared
    }

    private mutating func next(_ name: String, _ signature: String) -> DBusValue {
        precondition(index < declared.count && declared[index] == DBusArgument(name, signature),
            "argument \(index) read as \(name) (\(signature)), declared \(index < declared.count ? "\(declared[index])" : "nothing")")
        defer { index += 1 }
        return values[index]
    }

    mutating func string(_ name: String) throws(DeeplinkerError) -> String {
        let text = next(name, "s").stringValue ?? ""
        try Self.checkSize(text, "argument '\(name)'")
        return text
    }

    mutating func strings(_ name: String) throws(DeeplinkerError) -> [String] {
        let items = next(name, "as").stringArray ?? []
        for item in items { try Self.checkSize(item, "an element of argument '\(name)'") }
        return items
    }

    /// A raw value of any signature (`av`, …): the handler decides what it holds.
    mutating func raw(_ name: String, _ signature: String) -> DBusValue {
        next(name, signature)
    }

    mutating func uint32(_ name: String) -> UInt32 {
        next(name, "u").uint32Value ?? 0
    }

    /// An `a{sv}` argument, as its raw value: the handler decides which keys it knows.
    mutating func variants(_ name: String) -> DBusValue {
        next(name, "a{sv}")
    }

    static func checkSize(_ text: String, _ what: @autoclosure () -> String) throws(DeeplinkerError) {
        guard text.utf8.count <= Limits.stringArgumentBytes else {
            throw .tooLarge(what: what(), size: text.utf8.count, limit: Limits.stringArgumentBytes)
        }
    }
}

/// What a handler returns, and so the order of what follows the call: its result now (and then a
/// step that must come after the reply: `SetAppState`'s deliveries, SPEC §3), its result once a
/// change is durable (every reply of an invocation, a refusal that was recorded included), or a
/// reply the handler gives later (a store read, another service's answer), itself one of these.
/// The dispatcher sends it, exactly once (`DaemonCore.send`).
struct Reply<Output: Sendable>: Sendable {
    enum Kind: Sendable {
        /// Sent now; `then` runs right after it is sent.
        case now(Result<Output, DeeplinkerError>, then: (@Sendable () -> Void)?)
        /// Sent once `commit` is durable (`StorageFailed` if it is not).
        case afterCommit(Result<Output, DeeplinkerError>, PendingCommit)
        /// Sent as the reply the handler resolves `promise` with.
        case pending(ReplyPromise<Output>)
        /// An answer already in D-Bus form, relayed (a handler entry's, made of `Invoke`'s answers).
        case relayed(Result<Output, DBusError>)
    }

    let kind: Kind

    static func value(_ output: Output) -> Reply { Reply(kind: .now(.success(output), then: nil)) }

    static func now(_ result: Result<Output, DeeplinkerError>) -> Reply { Reply(kind: .now(result, then: nil)) }

    /// `output` now, then `step` once the reply is sent.
    static func value(_ output: Output, then step: @escaping @Sendable () -> Void) -> Reply {
        Reply(kind: .now(.success(output), then: step))
    }

    static func afterCommit(_ result: Result<Output, DeeplinkerError>, _ commit: PendingCommit) -> Reply {
        Reply(kind: .afterCommit(result, commit))
    }

    static func pending(_ promise: ReplyPromise<Output>) -> Reply { Reply(kind: .pending(promise)) }
}

/// A reply a handler gives later (a store read, another service's answer): resolved once, by the
/// handler, from any thread, with the ``Reply`` to send; the dispatcher attaches the sending of it.
final class ReplyPromise<Output: Sendable>: Sendable {
    private struct State {
        var reply: Reply<Output>?
        var onReply: (@Sendable (Reply<Output>) -> Void)?
    }

    private let state = LockedValue(State())

    init() {}

    func resolve(_ reply: Reply<Output>) {
        let waiting = state.withLock { state -> (@Sendable (Reply<Output>) -> Void)? in
            guard state.reply == nil else { return nil }
            state.reply = reply
            return state.onReply
        }
        waiting?(reply)
    }

    /// Resolves with a result sent at once.
    func resolve(_ result: Result<Output, DeeplinkerError>) {
        resolve(.now(result))
    }

    /// Calls `body` with the reply: now if resolved, else when it is.
    func whenResolved(_ body: @escaping @Sendable (Reply<Output>) -> Void) {
        let ready = state.withLock { state -> Reply<Output>? in
            if state.reply == nil { state.onReply = body }
            return state.reply
        }
        if let ready { body(ready) }
    }

    func map<T: Sendable>(_ transform: @escaping @Sendable (Output) -> T) -> ReplyPromise<T> {
        let mapped = ReplyPromise<T>()
        whenResolved { mapped.resolve($0.map(transform)) }
        return mapped
    }
}
