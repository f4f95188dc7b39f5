/// Remembers which invocation ids the app has handled, so that a redelivery (same
/// `deeplinker.invocation-id`) is acknowledged without running the handler again. A redelivery
/// that arrives while the first delivery is still being handled waits for its outcome.
actor InvocationLedger {
    /// How many handled ids are remembered (oldest forgotten first).
    let capacity: Int
    private var handled: Set<String> = []
    private var order: [String] = []
    private var inFlight: [String: Task<Void, any Error>] = [:]

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// Runs `body` unless `id` was already handled; returns false for a duplicate. An error from
    /// `body` is rethrown (and the id is not recorded, so a later redelivery runs it again).
    func run(id: String, _ body: @escaping @Sendable () async throws -> Void) async throws -> Bool {
        if id.isEmpty {
            try await body()
            return true
        }
        if handled.contains(id) { return false }
        if let running = inFlight[id] {
            try await running.value
            return false
        }
        let task = Task { try await body() }
        inFlight[id] = task
        defer { inFlight[id] = nil }
        try await task.value
        remember(id)
        return true
    }

    /// Whether `id` was handled.
    func contains(_ id: String) -> Bool { handled.contains(id) }

    private func remember(_ id: String) {
        guard handled.insert(id).inserted else { return }
        order.append(id)
        if order.count > capacity {
            handled.remove(order.removeFirst())
        }
    }
}
