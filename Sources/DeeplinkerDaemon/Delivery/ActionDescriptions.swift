import DBusKit
import DeeplinkerCore
import DeeplinkerProtocol
import TaskThreads

/// Each app's actions and their parameter types as its current owner lists them in
/// `org.gtk.Actions.DescribeAll` (SPEC §3, Delivery): read once per owner (unique name), as soon
/// as the owner appears, and again when the owner changes. One entry per app, so owners that went
/// away are not kept.
final class ActionDescriptions: Sendable {
    /// What an owner said: action name → parameter type (`""` for none), or nil when it did not
    /// answer `DescribeAll` (an app written for Deeplinker: its routes go as `a{ss}`).
    typealias Actions = [String: String]?

    /// What a delivery waits for: the actions, or the outcome that ends the attempt instead (the
    /// owner vanished or did not answer).
    enum Lookup: Sendable {
        case actions(Actions)
        case unreachable(DeliveryOutcome)
    }

    /// One `DescribeAll` call in flight and the deliveries waiting for it.
    private final class Read: Sendable {
        private let waiters = LockedValue<[@Sendable (Lookup) -> Void]?>([])

        /// Adds `body`; false when the read already finished.
        func wait(_ body: @escaping @Sendable (Lookup) -> Void) -> Bool {
            waiters.withLock { list in
                guard list != nil else { return false }
                list!.append(body)
                return true
            }
        }

        func finish(_ lookup: Lookup) {
            for body in waiters.withLock({ list in defer { list = nil }; return list ?? [] }) { body(lookup) }
        }
    }

    private enum Entry {
        case known(Actions)
        case reading(Read)
    }

    private let connection: DBusConnection
    private let byApp = LockedValue([String: (owner: String, entry: Entry)]())

    init(connection: DBusConnection) {
        self.connection = connection
    }

    /// Calls `body` with the owner's actions: at once (on this thread) when they are known, else
    /// when its `DescribeAll` answers, which is called once for all who wait.
    func withActions(appID: String, owner: String, timeout: Duration, _ body: @escaping @Sendable (Lookup) -> Void) {
        enum Next {
            case now(Actions)
            case join(Read)
            case start(Read)
        }
        let next = byApp.withLock { entries -> Next in
            if let current = entries[appID], current.owner == owner {
                switch current.entry {
                case .known(let actions): return .now(actions)
                case .reading(let read): return .join(read)
                }
            }
            let read = Read()
            entries[appID] = (owner, .reading(read))
            return .start(read)
        }
        switch next {
        case .now(let actions):
            body(.actions(actions))
        case .join(let read):
            if !read.wait(body) { withActions(appID: appID, owner: owner, timeout: timeout, body) }
        case .start(let read):
            _ = read.wait(body)
            describe(appID: appID, owner: owner, timeout: timeout, read: read)
        }
    }

    /// Reads a new owner's actions ahead of its first route (a no-op when they are known or being read).
    func prefetch(appID: String, owner: String, timeout: Duration) {
        withActions(appID: appID, owner: owner, timeout: timeout) { _ in }
    }

    private func describe(appID: String, owner: String, timeout: Duration, read: Read) {
        let message: DBusMessage
        do {
            message = try DBusMessage.methodCall(
                destination: owner, path: DeeplinkerBus.objectPath(forAppID: appID), interface: DeeplinkerBus.actionsInterface,
                member: "DescribeAll", arguments: [], noAutoStart: true)
        } catch {
            forget(appID: appID, read: read)
            return read.finish(.unreachable(.refused(error.name)))
        }
        connection.startCall(message, timeout: timeout) { [self] reply in
            let lookup: Lookup
            switch reply {
            case .success(let message):
                lookup = .actions((try? message.arguments()).flatMap(Self.parse))
            case .failure(let error):
                switch Deliverer.outcome(of: .failure(error)) {
                case .timedOut, .noOwner:
                    // A hung or vanished owner would not take the route either; nothing is learnt.
                    forget(appID: appID, read: read)
                    return read.finish(.unreachable(Deliverer.outcome(of: .failure(error))))
                default:
                    // UnknownMethod and the like: an app written for Deeplinker, which takes a{ss}.
                    lookup = .actions(nil)
                }
            }
            if case .actions(let actions) = lookup {
                byApp.withLock { entries in
                    if let current = entries[appID], current.owner == owner, case .reading(let r) = current.entry, r === read {
                        entries[appID] = (owner, .known(actions))
                    }
                }
            }
            read.finish(lookup)
        }
    }

    /// Drops an unfinished read, so the next delivery asks again.
    private func forget(appID: String, read: Read) {
        byApp.withLock { entries in
            if let current = entries[appID], case .reading(let r) = current.entry, r === read { entries[appID] = nil }
        }
    }

    /// Action name → parameter type from a `DescribeAll` reply (`a{s(bgav)}`); nil when the reply
    /// has another shape.
    static func parse(_ arguments: [DBusValue]) -> [String: String]? {
        guard arguments.count == 1, let entries = arguments[0].dictionaryEntries else { return nil }
        var actions: [String: String] = [:]
        for entry in entries {
            guard let name = entry.key.stringValue, let fields = entry.value.structureFields, fields.count == 3,
                case .signature(let type) = fields[1]
            else { return nil }
            actions[name] = type
        }
        return actions
    }
}
