import DBusKit
import DeeplinkerCore
import DeeplinkerProtocol
import TaskThreads

/// Each app's actions and their parameter types as its current owner lists them in
/// `org.gtk.Actions.DescribeAll` (SPEC §3, Delivery): read once per owner (unique name) and again
/// when the owner changes. One entry per app, so owners that went away are not kept.
final class ActionDescriptions: Sendable {
    /// What an owner said: action name → parameter type (`""` for none), or nil when it did not
    /// answer `DescribeAll` (an app written for Deeplinker: its routes go as `a{ss}`).
    typealias Actions = [String: String]?

    private let byApp = LockedValue([String: (owner: String, actions: Actions)]())

    /// The owner's actions if they were read already (the outer optional: read or not).
    func known(appID: String, owner: String) -> Actions? {
        byApp.withLock { entries -> Actions? in
            guard let entry = entries[appID], entry.owner == owner else { return nil }
            return .some(entry.actions)
        }
    }

    func remember(appID: String, owner: String, actions: Actions) {
        byApp.withLock { $0[appID] = (owner, actions) }
    }

    /// The `DescribeAll` call for the app's object path on `owner`.
    static func describeCall(appID: String, owner: String) throws(DBusError) -> DBusMessage {
        try DBusMessage.methodCall(
            destination: owner, path: DeeplinkerBus.objectPath(forAppID: appID), interface: "org.gtk.Actions",
            member: "DescribeAll", arguments: [], noAutoStart: true)
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
