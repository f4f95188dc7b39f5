import DBusKit
import DeeplinkerCore
import Synchronization

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

/// What a handler returns: its result now, its result once a change is durable (every reply of
/// an invocation, a refusal that was recorded included), or its result later (a store read, the
/// notification server's answer). The dispatcher sends it, exactly once.
struct Reply<Output: Sendable>: Sendable {
    enum Kind: Sendable {
        case now(Result<Output, DeeplinkerError>)
        /// Sent once `commit` resolved; `beforeReply` runs first when it succeeded.
        case afterCommit(Result<Output, DeeplinkerError>, PendingCommit, beforeReply: (@Sendable () -> Void)?)
        /// Sent when the handler resolves `promise`.
        case later(ReplyPromise<Output>)
    }

    let kind: Kind

    static func value(_ output: Output) -> Reply { Reply(kind: .now(.success(output))) }

    static func afterCommit(
        _ result: Result<Output, DeeplinkerError>, _ commit: PendingCommit, beforeReply: (@Sendable () -> Void)? = nil
    ) -> Reply {
        Reply(kind: .afterCommit(result, commit, beforeReply: beforeReply))
    }

    static func later(_ promise: ReplyPromise<Output>) -> Reply { Reply(kind: .later(promise)) }
}

/// A reply a handler gives later (a store read, another service's answer): resolved once, by the
/// handler, from any thread; the dispatcher attaches the sending of it.
final class ReplyPromise<Output: Sendable>: Sendable {
    private struct State {
        var result: Result<Output, DeeplinkerError>?
        var onResult: (@Sendable (Result<Output, DeeplinkerError>) -> Void)?
    }

    private let state = Mutex(State())

    init() {}

    func resolve(_ result: Result<Output, DeeplinkerError>) {
        let waiting = state.withLock { state -> (@Sendable (Result<Output, DeeplinkerError>) -> Void)? in
            guard state.result == nil else { return nil }
            state.result = result
            return state.onResult
        }
        waiting?(result)
    }

    /// Calls `body` with the result: now if resolved, else when it is.
    func whenResolved(_ body: @escaping @Sendable (Result<Output, DeeplinkerError>) -> Void) {
        let ready = state.withLock { state -> Result<Output, DeeplinkerError>? in
            if state.result == nil { state.onResult = body }
            return state.result
        }
        if let ready { body(ready) }
    }

    func map<T: Sendable>(_ transform: @escaping @Sendable (Output) -> T) -> ReplyPromise<T> {
        let mapped = ReplyPromise<T>()
        whenResolved { mapped.resolve($0.map(transform)) }
        return mapped
    }
}
