/// The callers the daemon has met, by unique bus name (SPEC §3 "Callers"): each is identified
/// once, its calls wait in order while that happens, and the entry goes when the name does.
/// Sandboxed callers carry their rate window.
struct CallerDirectory {
    typealias Job = @Sendable (isolated DaemonCore, Caller) -> Void

    private enum Entry {
        case identifying([Job])
        case known(Caller, RateWindow)
    }

    private var entries: [String: Entry] = [:]

    enum Lookup {
        case known(Caller)
        /// The first call of this connection: identify it, then `resolved`.
        case identify
        case queued
    }

    /// The caller of `sender` if known; else queues `job` for when it is.
    mutating func find(_ sender: String, job: @escaping Job) -> Lookup {
        switch entries[sender] {
        case .known(let caller, _)?:
            return .known(caller)
        case .identifying(var jobs)?:
            jobs.append(job)
            entries[sender] = .identifying(jobs)
            return .queued
        case nil:
            entries[sender] = .identifying([job])
            return .identify
        }
    }

    /// Records who `sender` is and returns the calls that waited for it, in arrival order. A name
    /// that went away meanwhile is not kept.
    mutating func resolved(_ sender: String, as caller: Caller) -> [Job] {
        guard case .identifying(let jobs)? = entries[sender] else { return [] }
        entries[sender] = .known(caller, RateWindow())
        return jobs
    }

    /// Admits an invocation from a sandboxed connection by its rate window (one is started for a
    /// connection met here first, as in-process calls are).
    mutating func admit(_ sender: String, _ caller: Caller, at now: Int64) -> Bool {
        var window = RateWindow()
        if case .known(_, let known)? = entries[sender] { window = known }
        let admitted = window.admit(at: now)
        entries[sender] = .known(caller, window)
        return admitted
    }

    /// Forgets a unique name that left the bus; its waiting calls, if any, are returned to be
    /// answered as an unidentified sandboxed caller's.
    mutating func forget(_ sender: String) -> [Job] {
        guard let entry = entries.removeValue(forKey: sender) else { return [] }
        if case .identifying(let jobs) = entry { return jobs }
        return []
    }

    var count: Int { entries.count }
}
