import TaskThreads

/// Waits for a value that another thread produces, like `withCheckedThrowingContinuation`, but
/// passes the value through a ``LockedValue`` and uses the continuation only to wake the task.
///
/// The reason is ThreadSanitizer. The Swift 6.3 runtime reports a resumption to TSan only when the
/// task has already suspended: `swift_continuation_resume` releases, and the job that runs the task
/// acquires. When the resume comes before the task awaits, `swift_continuation_await` continues at
/// once without the acquire. TSan then reports the task's first read of anything the resuming
/// thread made (a reply built on the loop thread) as a race, although the runtime's own atomics
/// order it. The lock gives TSan the edge it misses (`scripts/sanitizers/tsan.supp`). Only
/// continuations that carry a value made on another thread need this; a `CheckedContinuation<Void, _>`
/// does not.
nonisolated(nonsending) package func withHandOff<Value: Sendable, Failure: Error>(
    _ body: (HandOff<Value, Failure>) -> Void
) async throws(Failure) -> Value {
    let slot = LockedValue<Result<Value, Failure>?>(nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        body(HandOff(slot: slot, continuation: continuation))
    }
    return try slot.withLock { $0 }!.get()
}

/// The resuming end of ``withHandOff(_:)``; resume exactly once, from any thread.
package struct HandOff<Value: Sendable, Failure: Error>: Sendable {
    fileprivate let slot: LockedValue<Result<Value, Failure>?>
    fileprivate let continuation: CheckedContinuation<Void, Never>

    package func resume(returning value: Value) { resume(with: .success(value)) }

    package func resume(throwing error: Failure) { resume(with: .failure(error)) }

    package func resume(with result: Result<Value, Failure>) {
        slot.withLock { $0 = result }
        continuation.resume()
    }
}
