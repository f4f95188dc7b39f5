/// The callers the daemon has met, by unique bus name (SPEC §3 "Callers"): each is identified
/// once, its calls wait in order while that happens, and the entry goes when the name does.
/// Sandboxed callers carry their rate window.
struct CallerDirectory {
    typealias Job = @Sendable (isolated DaemonCore, Caller) -> Void

    private enum Entry {
        /// Met, with only calls whose outcome does not depend on the caller so far: not identified
        /// (nothing needs it yet), its invocations counted.
        case unidentified(RateWindow)
        /// Being identified: the calls waiting for it, in order, and the invocations counted.
        case identifying([Job], RateWindow)
        case known(Caller, RateWindow)
    }

    private var entries: [String: Entry] = [:]

    enum Lookup {
        case known(Caller)
        /// A call that needs the caller: identify the connection, then `resolved`.
        case identify
        case queued
        /// The call runs now as ``provisional``: its outcome is the same for every caller and no
        /// call of its connection waits before it.
        case provisional
    }

    /// The caller a call runs as before its connection is identified: the strictest, an
    /// unidentified sandboxed app (its invocations count in the connection's rate window).
    static let provisional = Caller.sandboxed(appID: nil)

    /// The caller of `sender` if known; else queues `job` for when it is. A call whose outcome
    /// does not depend on the caller (`callerIndependent`: a method open to everyone, SPEC §3)
    /// runs at once as ``provisional`` when no call of its connection waits before it and its
    /// rate window has room, so the strictest caller is admitted exactly as the real one would
    /// be; a connection making only such calls (a launcher's one `Open`) is never identified.
    mutating func find(_ sender: String, callerIndependent: Bool = false, job: @escaping Job) -> Lookup {
        switch entries[sender] {
        case .known(let caller, _)?:
            return .known(caller)
        case .unidentified(let window)?:
            if callerIndependent, !window.isFull { return .provisional }
            entries[sender] = .identifying([job], window)
            return .identify
        case .identifying(var jobs, let window)?:
            if callerIndependent, jobs.isEmpty, !window.isFull { return .provisional }
            jobs.append(job)
            entries[sender] = .identifying(jobs, window)
            return .queued
        case nil:
            if callerIndependent {
                entries[sender] = .unidentified(RateWindow())
                return .provisional
            }
            entries[sender] = .identifying([job], RateWindow())
            return .identify
        }
    }

    /// Records who `sender` is and returns the calls that waited for it, in arrival order. A name
    /// that went away meanwhile is not kept.
    mutating func resolved(_ sender: String, as caller: Caller) -> [Job] {
        guard case .identifying(let jobs, let window)? = entries[sender] else { return [] }
        entries[sender] = .known(caller, window)
        return jobs
    }

    /// Admits an invocation from a sandboxed connection by its rate window (one is started for a
    /// connection met here first, as in-process calls are).
    mutating func admit(_ sender: String, _ caller: Caller, at now: Int64) -> Bool {
        switch entries[sender] {
        case .unidentified(var window)?:
            let admitted = window.admit(at: now)
            entries[sender] = .unidentified(window)
            return admitted
        case .identifying(let jobs, var window)?:
            let admitted = window.admit(at: now)
            entries[sender] = .identifying(jobs, window)
            return admitted
        case .known(_, var window)?:
            let admitted = window.admit(at: now)
            entries[sender] = .known(caller, window)
            return admitted
        case nil:
            var window = RateWindow()
            let admitted = window.admit(at: now)
            entries[sender] = .known(caller, window)
            return admitted
        }
    }

    /// Forgets a unique name that left the bus; its waiting calls, if any, are returned to be
    /// answered as an unidentified sandboxed caller's.
    mutating func forget(_ sender: String) -> [Job] {
        guard let entry = entries.removeValue(forKey: sender) else { return [] }
        if case .identifying(let jobs, _) = entry { return jobs }
        return []
    }

    var count: Int { entries.count }
}
