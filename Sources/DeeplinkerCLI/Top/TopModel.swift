import DeeplinkerClient

/// What `deeplinker top` shows, as plain data: one row per app and the newest invocations, with
/// the filter and scroll position. Updated from the daemon's answers and `InvocationChanged`
/// signals; never holds a parameter value (SPEC §3, §7).
public struct TopModel: Sendable, Equatable {
    public struct AppRow: Sendable, Equatable {
        public var appID: String
        public var state: String = "?"
        /// `ready` in the route file: signal, name or focus.
        public var readiness: String = "signal"
        public var pendingTarget: String?
        /// µs since the epoch the pending route arrived.
        public var pendingSince: Int64?
        /// Delivery attempts of the pending route seen since `top` started (`delivering` signals).
        public var attempts = 0
        /// The last failure reported for the app (a refused or timed-out delivery, a rejection).
        public var lastError = ""

        public init(appID: String) { self.appID = appID }
    }

    public struct InvocationRow: Sendable, Equatable {
        public var invocationID: String
        public var appID: String
        public var source: String
        public var target: String
        public var status: String
        public var detail: String
        public var receivedAt: Int64

        public init(invocationID: String, appID: String, source: String, target: String, status: String, detail: String = "", receivedAt: Int64) {
            self.invocationID = invocationID
            self.appID = appID
            self.source = source
            self.target = target
            self.status = status
            self.detail = detail
            self.receivedAt = receivedAt
        }
    }

    /// Invocations kept (newest first).
    public static let keptInvocations = 500

    public var apps: [AppRow] = []
    public var invocations: [InvocationRow] = []
    /// Only apps whose id contains this (case-insensitive); "" = all.
    public var filter = ""
    /// Whether `/` was typed and the filter is being edited.
    public var editingFilter = false
    /// Invocation rows scrolled past.
    public var scroll = 0

    public init() {}

    public mutating func setApps(_ ids: [String], readiness: [String: String]) {
        let old = Dictionary(apps.map { ($0.appID, $0) }, uniquingKeysWith: { a, _ in a })
        apps = ids.sorted().map { id in
            var row = old[id] ?? AppRow(appID: id)
            row.readiness = readiness[id] ?? "signal"
            return row
        }
    }

    public mutating func update(_ appID: String, _ change: (inout AppRow) -> Void) {
        guard let index = apps.firstIndex(where: { $0.appID == appID }) else { return }
        change(&apps[index])
    }

    /// Replaces the invocation list with the daemon's history (newest first), keeping details seen.
    public mutating func setHistory(_ entries: [HistoryEntry]) {
        let details = Dictionary(invocations.map { ($0.invocationID, $0.detail) }, uniquingKeysWith: { a, _ in a })
        invocations = entries.prefix(Self.keptInvocations).map {
            InvocationRow(
                invocationID: $0.invocationID, appID: $0.appID, source: $0.source, target: $0.target, status: $0.status,
                detail: details[$0.invocationID] ?? "", receivedAt: $0.receivedAtMicroseconds)
        }
    }

    /// Applies one `InvocationChanged`: the invocation's status and detail, the app's attempts
    /// and last error. A new invocation goes on top (its source and target come with the next
    /// history read).
    public mutating func apply(_ change: InvocationChange, now: Int64) {
        if let index = invocations.firstIndex(where: { $0.invocationID == change.invocationID }) {
            invocations[index].status = change.status
            invocations[index].detail = change.detail
        } else {
            invocations.insert(InvocationRow(
                invocationID: change.invocationID, appID: change.appID, source: "", target: "", status: change.status,
                detail: change.detail, receivedAt: now), at: 0)
            if invocations.count > Self.keptInvocations { invocations.removeLast() }
        }
        update(change.appID) { row in
            switch change.status {
            case "delivering": row.attempts += 1
            case "delivered", "superseded", "discarded": row.attempts = 0
            case "failed", "rejected", "expired":
                row.attempts = 0
                row.lastError = change.detail.isEmpty ? change.status : "\(change.status): \(change.detail)"
            case "pending" where !change.detail.isEmpty:
                row.lastError = change.detail
            default: break
            }
        }
    }

    /// Takes what the daemon answered: the apps, their states and pending routes, the history.
    public mutating func apply(_ snapshot: TopSnapshot, readiness: [String: String]) {
        setApps(snapshot.apps, readiness: readiness)
        for app in snapshot.apps {
            let pending = snapshot.pending[app]
            update(app) { row in
                row.state = snapshot.states[app] ?? "?"
                row.pendingTarget = pending?.target
                row.pendingSince = pending?.receivedAt
                if pending == nil { row.attempts = 0 }
                // A route waiting on an app that did not start says so, however old the signal.
                if let detail = pending?.detail, !detail.isEmpty { row.lastError = detail }
            }
        }
        setHistory(snapshot.history)
    }

    public func matches(_ appID: String) -> Bool {
        filter.isEmpty || appID.lowercased().contains(filter.lowercased())
    }

    public var visibleApps: [AppRow] { apps.filter { matches($0.appID) } }
    public var visibleInvocations: [InvocationRow] { invocations.filter { matches($0.appID) } }

    /// A key typed in the view; returns false when it means quit.
    public mutating func handle(_ key: TopKey) -> Bool {
        if editingFilter {
            switch key {
            case .enter: editingFilter = false
            case .escape: editingFilter = false; filter = ""
            case .backspace: if !filter.isEmpty { filter.removeLast() }
            case .character(let c): filter.append(c)
            default: break
            }
            scroll = 0
            return true
        }
        switch key {
        case .character("q"), .character("Q"): return false
        case .character("/"): editingFilter = true
        case .escape: filter = ""; scroll = 0
        case .up: scroll = max(0, scroll - 1)
        case .down: scroll = min(max(0, visibleInvocations.count - 1), scroll + 1)
        case .pageUp: scroll = max(0, scroll - 10)
        case .pageDown: scroll = min(max(0, visibleInvocations.count - 1), scroll + 10)
        default: break
        }
        return true
    }
}

/// A key as `top` reads it from the terminal.
public enum TopKey: Sendable, Equatable {
    case character(Character)
    case up, down, pageUp, pageDown, enter, escape, backspace

    /// Splits raw terminal input into keys (ANSI arrow and page sequences, Enter, Backspace).
    public static func parse(_ bytes: [UInt8]) -> [TopKey] {
        var keys: [TopKey] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B, i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") {
                let code = bytes[i + 2]
                switch code {
                case UInt8(ascii: "A"): keys.append(.up); i += 3; continue
                case UInt8(ascii: "B"): keys.append(.down); i += 3; continue
                case UInt8(ascii: "5") where i + 3 < bytes.count && bytes[i + 3] == UInt8(ascii: "~"): keys.append(.pageUp); i += 4; continue
                case UInt8(ascii: "6") where i + 3 < bytes.count && bytes[i + 3] == UInt8(ascii: "~"): keys.append(.pageDown); i += 4; continue
                default: i += 3; continue
                }
            }
            switch b {
            case 0x1B: keys.append(.escape)
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x20...0x7E: keys.append(.character(Character(UnicodeScalar(b))))
            default: break
            }
            i += 1
        }
        return keys
    }
}

/// One read of the daemon for `top`: every app's state and pending target (never its
/// parameters), and the newest invocations.
public struct TopSnapshot: Sendable, Equatable {
    public struct Pending: Sendable, Equatable {
        public var target: String
        /// µs since the epoch.
        public var receivedAt: Int64
        /// Why it waits (`GetInvocation`'s `detail`), `""` when nothing is said.
        public var detail: String

        public init(target: String, receivedAt: Int64, detail: String = "") {
            self.target = target
            self.receivedAt = receivedAt
            self.detail = detail
        }
    }

    public var apps: [String]
    public var states: [String: String]
    public var pending: [String: Pending]
    public var history: [HistoryEntry]

    public init(apps: [String], states: [String: String], pending: [String: Pending], history: [HistoryEntry]) {
        self.apps = apps
        self.states = states
        self.pending = pending
        self.history = history
    }
}
