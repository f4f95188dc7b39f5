import DBusKit
import DeeplinkerCore

/// Answers a method call once its change is durable: the one path from core results to replies.
enum MethodCallReplies {
    /// Replies once `commit` is durable; `beforeReply` runs first when it succeeded (on the thread
    /// that resolves the commit).
    static func answer<T: Sendable>(
        _ call: DBusMethodCall, _ result: Result<T, DeeplinkerError>, after commit: PendingCommit,
        beforeReply: (@Sendable () -> Void)? = nil, _ encode: @escaping @Sendable (T) -> [DBusValue]
    ) {
        // Registered after the change's effects: its `InvocationChanged` signals go out first.
        commit.whenResolved { outcome in
            switch outcome {
            case .success:
                beforeReply?()
                send(call, result, commitError: nil, encode)
            case .failure(let error): send(call, result, commitError: error, encode)
            }
        }
    }

    static func answer<T: Sendable>(_ call: DBusMethodCall, _ result: Result<T, DeeplinkerError>, _ encode: @Sendable (T) -> [DBusValue]) {
        switch result {
        case .success(let value): call.reply(encode(value))
        case .failure(let error): call.fail(error.dbusError)
        }
    }

    private static func send<T: Sendable>(
        _ call: DBusMethodCall, _ result: Result<T, DeeplinkerError>, commitError: (any Error)?, _ encode: @Sendable (T) -> [DBusValue]
    ) {
        if let commitError {
            // Nothing was promised durable: say so rather than answer as if it were stored.
            return call.fail(DeeplinkerError.storageFailed("\(commitError)").dbusError)
        }
        answer(call, result, encode)
    }

    static func route(_ reply: InvocationReply) -> [DBusValue] {
        [.string(reply.id), .string(reply.target), .stringDictionary(reply.parameters)]
    }
}
