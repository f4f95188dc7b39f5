internal import CDBus
import FoundationEssentials
import Synchronization
import TaskThreads

/// A private connection to a message bus, run by its own `EventLoop` thread. All methods may be
/// called from any thread or task.
public final class DBusConnection: @unchecked Sendable {
    // `raw` is used on the loop thread only; the state below is checked to be (`LoopBound`).
    // nil for a detached connection (``detached(uniqueName:onSend:answer:)``).
    let raw: OpaquePointer?
    /// Where a detached connection's outgoing messages go.
    let detachedSink: (@Sendable (DBusMessage) -> Void)?
    /// What a detached connection's method calls are answered with (nil: `ServiceUnknown`).
    let detachedAnswer: (@Sendable (DBusMessage) -> Result<[DBusValue], DBusError>)?
    let loop: EventLoop
    /// Runs actor jobs on this connection's loop thread (see ``DBusLoopExecutor``).
    public let executor: DBusLoopExecutor
    /// The connection's unique name on the bus, e.g. `:1.42`.
    public let uniqueName: String
    /// Exported objects, subscriptions and calls awaiting replies, confined to the loop.
    let state: LoopBound<LoopState>

    struct LoopState {
        var objects: [String: DBusObject] = [:]
        var subscriptions: [UInt64: Subscription] = [:]
        var pendingCalls: [UInt64: PendingCall] = [:]
        /// Cleared when the loop closes the connection. Sends queued before ``close()`` check this,
        /// not `closed` (set at once), so they still go out, flushed, before the connection closes.
        var open = true
    }
    private let nextID = Atomic<UInt64>(1)
    private let closed = Atomic<Bool>(false)
    private let released = Atomic<Bool>(false)
    private let disconnectHandlers = LockedValue<[@Sendable () -> Void]>([])

    struct Subscription {
        let rule: MatchRule
        let handler: @Sendable (DBusMessage, [DBusValue]) -> Void
    }

    /// Connects to the bus at `address`, or to the session bus when `address` is nil.
    public init(address: String? = nil) throws(DBusError) {
        Self.initThreads
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let connection: OpaquePointer?
        if let address {
            connection = dbus_connection_open_private(address, &error)
            if let connection, dbus_bus_register(connection, &error) == 0 {
                dbus_connection_close(connection)
                dbus_connection_unref(connection)
                throw Self.error(from: &error, fallback: "could not register on the bus at \(address)")
            }
        } else {
            connection = dbus_bus_get_private(DBUS_BUS_SESSION, &error)
        }
        guard let connection else {
            throw Self.error(from: &error, fallback: "could not connect to the bus")
        }
        raw = connection
        detachedSink = nil
        detachedAnswer = nil
        uniqueName = dbus_bus_get_unique_name(connection).map { String(cString: $0) } ?? ""
        dbus_connection_set_exit_on_disconnect(connection, 0)
        loop = EventLoop()
        state = LoopBound(LoopState(), loop: loop)
        executor = DBusLoopExecutor(loop: loop)
        loop.install(on: connection)
        installFilter()
        // unowned(unsafe): deinit stops the loop before the memory goes, and a checked unowned
        // reference would trap while deinit waits for that.
        loop.onIteration = { [unowned(unsafe) self] in dispatchAll() }
        loop.start(name: "dbus\(uniqueName)")
    }

    private init(
        detachedAs uniqueName: String, onSend: @escaping @Sendable (DBusMessage) -> Void,
        answer: (@Sendable (DBusMessage) -> Result<[DBusValue], DBusError>)?
    ) {
        raw = nil
        detachedSink = onSend
        detachedAnswer = answer
        self.uniqueName = uniqueName
        loop = EventLoop()
        state = LoopBound(LoopState(), loop: loop)
        executor = DBusLoopExecutor(loop: loop)
        loop.start(name: "dbus-detached")
    }

    /// A connection to no bus, with a loop thread and executor of its own: what it sends goes to
    /// `onSend`, its method calls are answered by `answer` (reply values or an error; without one
    /// they fail with `ServiceUnknown`), and subscriptions are kept locally without asking a bus.
    /// Lets code written against a connection run in process with no `dbus-daemon` (a daemon's
    /// method table under test, as a router is tested without a server), its peers played by `answer`.
    public static func detached(
        uniqueName: String = ":detached", onSend: @escaping @Sendable (DBusMessage) -> Void = { _ in },
        answer: (@Sendable (DBusMessage) -> Result<[DBusValue], DBusError>)? = nil
    ) -> DBusConnection {
        DBusConnection(detachedAs: uniqueName, onSend: onSend, answer: answer)
    }

    deinit {
        // The last reference can go on the loop thread (a job or a handler let go of it): there
        // `close()` would hand itself to another thread, and a closure that captures `self` must
        // not outlive `deinit`.
        if loop.isLoopThread { closeOnLoopThread() } else { close() }
    }

    /// ``close()`` for `deinit` on the loop thread: the same steps, run here, and the loop told to
    /// stop after this turn (its thread keeps the `EventLoop` alive until then).
    private func closeOnLoopThread() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        closed.store(true, ordering: .releasing)
        closeOnLoop()
        // The loop's next turn must not call back into this object.
        loop.onIteration = {}
        loop.stopAndWait()
        disconnectHandlers.withLock { $0.removeAll() }
        if let raw { dbus_connection_unref(raw) }
    }

    private static let initThreads: Void = { _ = dbus_threads_init_default() }()

    static func error(from error: inout CDBus.DBusError, fallback: String) -> DBusError {
        if dbus_error_is_set(&error) != 0 {
            return DBusError(
                name: error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
                message: error.message.map { String(cString: $0) } ?? fallback)
        }
        return .failed(fallback)
    }

    /// Whether `close()` was called or the bus went away.
    public var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Runs `handler` once when the bus connection is lost (not after `close()`).
    public func onDisconnect(_ handler: @escaping @Sendable () -> Void) {
        disconnectHandlers.withLock { $0.append(handler) }
    }

    /// Flushes what is queued (a message sent before this call goes out, from any thread), closes
    /// the connection and stops its thread. Calls still waiting fail with `Disconnected`. Exported
    /// objects, subscriptions and disconnect handlers, which can never run again, are let go: their
    /// closures often hold the connection's owner (a daemon's handlers hold the daemon, which holds
    /// the connection), and kept they would keep that whole graph alive (LeakSanitizer found every
    /// in-process test daemon leaked that way).
    public func close() {
        // Closed already: nothing to do. This is also `deinit` after a `close()`, which may run on
        // the loop thread (the last reference can be the job below, or a handler it let go of)
        // and must not capture `self` there.
        guard !released.load(ordering: .acquiring) else { return }
        if loop.isLoopThread {
            // Waiting for our own thread to stop would never end; let another thread do it.
            NamedThread.start(name: "dbus-close") { [self] in close() }
            return
        }
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        closed.store(true, ordering: .releasing)
        loop.post { [self] in closeOnLoop() }
        loop.stopAndWait()
        disconnectHandlers.withLock { $0.removeAll() }
        if let raw { dbus_connection_unref(raw) }
    }

    /// The loop thread's part of closing: the connection flushed and closed, and the pending calls
    /// failed there, where they are kept (later calls fail at once: `closed` is set).
    private func closeOnLoop() {
        state.value.open = false
        if let raw {
            dbus_connection_flush(raw)
            loop.uninstall(from: raw)
            dbus_connection_close(raw)
        }
        failPendingCalls()
        state.value.objects.removeAll()
        state.value.subscriptions.removeAll()
    }

    /// Marks the connection closed after the bus dropped it; returns the handlers to run.
    func markClosedByPeer() -> [@Sendable () -> Void] {
        closed.store(true, ordering: .releasing)
        return disconnectHandlers.withLock { handlers in
            let taken = handlers
            handlers.removeAll()
            return taken
        }
    }

    func nextIdentifier() -> UInt64 { nextID.wrappingAdd(1, ordering: .relaxed).oldValue }

    // MARK: - Sending

    /// Queues a message (a signal, a reply, or a call whose reply is not wanted). On the loop thread
    /// it is written at once; from another thread it is queued for the loop, which a first job
    /// wakes: only the loop thread writes the socket, so libdbus's watch callbacks (which a failed
    /// write makes on the thread that writes) always run where the loop reads its watches.
    public func send(_ message: DBusMessage) {
        if let detachedSink {
            guard !isClosed else { return }
            return detachedSink(message)
        }
        // On the loop, a job that was running when `close()` was called still sends: the loop
        // closes the connection after it (a reply answered as a failed sync stops the daemon).
        if loop.isLoopContext { return sendOnLoop(message) }
        guard !isClosed else { return }
        loop.post { [self] in sendOnLoop(message) }
    }

    private func sendOnLoop(_ message: DBusMessage) {
        guard state.value.open else { return }
        _ = dbus_connection_send(raw, message.raw, nil)
    }

    /// Emits a signal, to everyone or only to `destination`.
    public func emitSignal(
        path: String, interface: String, member: String, arguments: [DBusValue] = [], destination: String? = nil
    ) throws(DBusError) {
        send(try DBusMessage.signal(path: path, interface: interface, member: member, arguments: arguments, destination: destination))
    }

    /// Calls a method and returns the reply's values; an error reply is thrown as `DBusError`.
    /// `timeout` nil means libdbus's default (25 s). Runs on the caller's executor: an actor on
    /// ``executor`` sends and resumes on the loop thread without a hop.
    nonisolated(nonsending) public func call(
        destination: String, path: String, interface: String?, member: String, arguments: [DBusValue] = [],
        timeout: Duration? = nil, noAutoStart: Bool = false
    ) async throws(DBusError) -> [DBusValue] {
        let message = try DBusMessage.methodCall(
            destination: destination, path: path, interface: interface, member: member,
            arguments: arguments, noAutoStart: noAutoStart)
        let reply = try await call(message, timeout: timeout)
        return try reply.arguments()
    }

    /// Sends a method call and waits for its reply message (an error reply is thrown).
    nonisolated(nonsending) public func call(_ message: DBusMessage, timeout: Duration? = nil) async throws(DBusError) -> DBusMessage {
        // The reply is made on the loop thread: hand it over through a lock (see `withHandOff`).
        try await withHandOff { (reply: HandOff<DBusMessage, DBusError>) in
            startCall(message, timeout: timeout) { reply.resume(with: $0) }
        }
    }

    /// The callback form of `call`: `completion` runs once, on the loop thread.
    public func startCall(
        _ message: DBusMessage, timeout: Duration?, completion: @escaping @Sendable (Result<DBusMessage, DBusError>) -> Void
    ) {
        guard !isClosed else { return completion(.failure(.disconnected())) }
        if let detachedSink {
            // Numbered as a bus connection would on sending: libdbus replies only to a numbered call.
            if message.serial == 0 { dbus_message_set_serial(message.raw, max(1, UInt32(truncatingIfNeeded: nextIdentifier()))) }
            detachedSink(message)
            let answer = detachedAnswer
            return loop.post {
                switch answer?(message) ?? .failure(DBusError(name: DBusError.serviceUnknownName, message: "a detached connection reaches no bus")) {
                case .success(let values):
                    do throws(DBusError) { completion(.success(try message.makeReply(values))) } catch { completion(.failure(error)) }
                case .failure(let error):
                    completion(.failure(error))
                }
            }
        }
        let milliseconds: Int32 = timeout.map { t in
            let ms = t.components.seconds * 1000 + t.components.attoseconds / 1_000_000_000_000_000
            return Int32(clamping: max(ms, 1))
        } ?? -1
        loop.post { [self] in
            guard !isClosed else { return completion(.failure(.disconnected())) }
            self.sendWithReply(message, milliseconds: milliseconds, completion: completion)
        }
    }
}
