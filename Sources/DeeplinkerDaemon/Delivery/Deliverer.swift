import DBusKit
import DeeplinkerCore
import FoundationEssentials
import Glibc
import DeeplinkerProtocol

/// Hands one route to an app by its delivery mode and reports the outcome (SPEC §3, Delivery).
struct Deliverer: Sendable {
    let connection: DBusConnection
    /// What each app's owner lists in `DescribeAll`, shared by every copy of the deliverer.
    let actionDescriptions: ActionDescriptions

    init(connection: DBusConnection) {
        self.connection = connection
        actionDescriptions = ActionDescriptions(connection: connection)
    }

    /// An `activate-action` app's name has a new owner: its actions are read now, so its first
    /// route goes out without waiting for them.
    func ownerAppeared(appID: String, owner: String, policy: AppPolicy?) {
        guard case .activateAction? = policy?.delivery else { return }
        actionDescriptions.prefetch(appID: appID, owner: owner, timeout: policy?.deliveryTimeout ?? .seconds(5))
    }

    /// Runs on the caller's executor, so the core (on the bus loop) delivers without a thread hop.
    nonisolated(nonsending) func deliver(_ attempt: DeliveryAttempt) async -> DeliveryOutcome {
        guard let route = attempt.invocation.route else { return .refused("no route") }
        switch attempt.mode {
        case .activateAction, .open:
            return await start(attempt)?.outcome() ?? .refused("no route")
        case .signal:
            do {
                try connection.emitSignal(
                    path: DeeplinkerAPI.objectPath, interface: DeeplinkerAPI.interface, member: "Deliver",
                    arguments: [
                        .string(attempt.invocation.appID), .string(attempt.invocation.id), .string(route.source.rawValue),
                        .string(route.target), .stringDictionary(route.parameters),
                    ])
                return .acknowledged
            } catch {
                return .refused(error.name)
            }
        case .exec(let command):
            return await CommandRunner.run(command, substituting: placeholders(attempt, route: route), timeout: attempt.timeout)
        }
    }

    /// `platform_data` of `ActivateAction` and `Open`.
    static func platformData(_ attempt: DeliveryAttempt) -> [String: DBusValue] {
        let invocation = attempt.invocation
        var data: [String: DBusValue] = [
            PlatformDataKey.invocationID: .string(invocation.id),
            PlatformDataKey.source: .string(invocation.route?.source.rawValue ?? invocation.source.rawValue),
            PlatformDataKey.receivedAt: .int64(invocation.receivedAt),
        ]
        if attempt.redelivery { data[PlatformDataKey.redelivery] = .boolean(true) }
        for (key, value) in invocation.platformData {
            switch key {
            case PlatformDataKey.activationToken, PlatformDataKey.desktopStartupID, PlatformDataKey.url, PlatformDataKey.notificationAction:
                data[key] = .string(value)
            default:
                break
            }
        }
        return data
    }

    /// Starts an `activate-action` or `open` delivery at once: on the bus thread the call is written
    /// to the bus before this returns, ahead of whatever the caller sends next (for an app whose
    /// actions were not read yet, `DescribeAll` is). Nil for the other modes, which start when
    /// ``deliver(_:)`` is awaited.
    func start(_ attempt: DeliveryAttempt) -> DeliveryInFlight? {
        guard let route = attempt.invocation.route else { return nil }
        switch attempt.mode {
        case .activateAction: return startActivateAction(attempt, route: route)
        case .open(let templates): return startOpen(attempt, route: route, templates: templates)
        case .signal, .exec: return nil
        }
    }

    /// `ActivateAction` with the parameter the action's own type asks for: read from the owner's
    /// `DescribeAll` first unless known (SPEC §3, Delivery).
    private func startActivateAction(_ attempt: DeliveryAttempt, route: Route) -> DeliveryInFlight {
        let inFlight = DeliveryInFlight()
        guard let destination = attempt.destination else {
            inFlight.finish(.noOwner)
            return inFlight
        }
        actionDescriptions.withActions(appID: attempt.invocation.appID, owner: destination, timeout: attempt.timeout) { [self] lookup in
            switch lookup {
            case .actions(let actions):
                sendActivateAction(attempt, route: route, destination: destination, actions: actions, to: inFlight)
            case .unreachable(let outcome):
                inFlight.finish(outcome)
            }
        }
        return inFlight
    }

    private func sendActivateAction(
        _ attempt: DeliveryAttempt, route: Route, destination: String, actions: ActionDescriptions.Actions, to inFlight: DeliveryInFlight
    ) {
        let parameter: [DBusValue]
        switch ActionArgument.resolve(route: route, actions: actions, declaredParameters: attempt.declaredParameters) {
        case .failure(let refusal): return inFlight.finish(.undeliverable(refusal.detail))
        case .success(let argument): parameter = Self.encode(argument)
        }
        send(
            member: "ActivateAction",
            arguments: [.string(route.target), .array(elementSignature: "v", parameter), .variantDictionary(Self.platformData(attempt))],
            attempt, destination: destination, to: inFlight)
    }

    /// `Open` with the one URI of the route (SPEC §3, Delivery: `open`).
    private func startOpen(_ attempt: DeliveryAttempt, route: Route, templates: [String: OpenTemplate]) -> DeliveryInFlight {
        let inFlight = DeliveryInFlight()
        guard let destination = attempt.destination else {
            inFlight.finish(.noOwner)
            return inFlight
        }
        switch OpenTemplate.uri(for: route, templates: templates, url: attempt.invocation.platformData[PlatformDataKey.url]) {
        case .failure(let refusal):
            inFlight.finish(.undeliverable(refusal.detail))
        case .success(let uri):
            send(member: "Open", arguments: [.strings([uri]), .variantDictionary(Self.platformData(attempt))], attempt, destination: destination, to: inFlight)
        }
        return inFlight
    }

    /// Calls `member` of `org.freedesktop.Application` on the owner with NO_AUTO_START (on the app's
    /// well-known name, letting the bus start it, for an attempt that ``DeliveryAttempt/startsApp``);
    /// its reply settles `inFlight`.
    private func send(member: String, arguments: [DBusValue], _ attempt: DeliveryAttempt, destination: String, to inFlight: DeliveryInFlight) {
        let message: DBusMessage
        do {
            message = try DBusMessage.methodCall(
                destination: destination, path: DeeplinkerBus.objectPath(forAppID: attempt.invocation.appID),
                interface: DeeplinkerBus.applicationInterface, member: member, arguments: arguments,
                noAutoStart: !attempt.startsApp)
        } catch {
            return inFlight.finish(.refused(error.name))
        }
        connection.startCall(message, timeout: attempt.timeout) { reply in
            inFlight.finish(Self.outcome(of: reply))
        }
    }

    /// The `av` parameter of `ActivateAction` for `argument`: empty for none, else one variant.
    static func encode(_ argument: ActionArgument) -> [DBusValue] {
        switch argument {
        case .none: []
        case .parameters(let parameters): [.variant(.stringDictionary(parameters))]
        case .string(let value): [.variant(.string(value))]
        case .int32(let value): [.variant(.int32(value))]
        case .uint32(let value): [.variant(.uint32(value))]
        case .int64(let value): [.variant(.int64(value))]
        case .uint64(let value): [.variant(.uint64(value))]
        case .boolean(let value): [.variant(.boolean(value))]
        case .double(let value): [.variant(.double(value))]
        }
    }

    /// What an `ActivateAction` reply means for the route.
    static func outcome(of reply: Result<DBusMessage, DBusError>) -> DeliveryOutcome {
        switch reply {
        case .success:
            return .acknowledged
        case .failure(let error):
            // NoReply covers both a time-out and a peer that vanished: the outcome is unknown.
            if error.name == DBusError.noReplyName { return .timedOut }
            if error.name == DBusError.serviceUnknownName || error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
                return .noOwner
            }
            return .refused(error.name)
        }
    }

    private func placeholders(_ attempt: DeliveryAttempt, route: Route) -> [String: String] {
        let json = JSONValue.object(route.parameters.mapValues(JSONValue.string)).rendered
        return [
            "{target}": route.target,
            "{invocation-id}": attempt.invocation.id,
            "{source}": route.source.rawValue,
            "{parameters-json}": json,
        ]
    }
}
