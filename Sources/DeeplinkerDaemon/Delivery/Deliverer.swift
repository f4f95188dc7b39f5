import DBusKit
import DeeplinkerCore
import Foundation
import DeeplinkerProtocol

/// Hands one route to an app by its delivery mode and reports the outcome (SPEC §3, Delivery).
struct Deliverer: Sendable {
    let connection: DBusConnection

    /// Runs on the caller's executor, so the core (on the bus loop) delivers without a thread hop.
    nonisolated(nonsending) func deliver(_ attempt: DeliveryAttempt) async -> DeliveryOutcome {
        guard let route = attempt.invocation.route else { return .refused("no route") }
        switch attempt.mode {
        case .activateAction:
            return await startActivateAction(attempt, route: route).outcome()
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

    /// `platform_data` of `ActivateAction`.
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

    /// Starts an `activate-action` delivery at once: on the bus thread the call is written to the
    /// bus before this returns, ahead of whatever the caller sends next. Nil for the other modes,
    /// which start when ``deliver(_:)`` is awaited.
    func start(_ attempt: DeliveryAttempt) -> DeliveryInFlight? {
        guard case .activateAction = attempt.mode, let route = attempt.invocation.route else { return nil }
        return startActivateAction(attempt, route: route)
    }

    private func startActivateAction(_ attempt: DeliveryAttempt, route: Route) -> DeliveryInFlight {
        let inFlight = DeliveryInFlight()
        guard let destination = attempt.destination else {
            inFlight.finish(.noOwner)
            return inFlight
        }
        let message: DBusMessage
        do {
            message = try DBusMessage.methodCall(
                destination: destination, path: DeeplinkerBus.objectPath(forAppID: attempt.invocation.appID),
                interface: DeeplinkerBus.applicationInterface, member: "ActivateAction",
                arguments: [
                    .string(route.target),
                    .array(elementSignature: "v", [.variant(.stringDictionary(route.parameters))]),
                    .variantDictionary(Self.platformData(attempt)),
                ],
                noAutoStart: true)
        } catch {
            inFlight.finish(.refused(error.name))
            return inFlight
        }
        connection.startCall(message, timeout: attempt.timeout) { reply in
            inFlight.finish(Self.outcome(of: reply))
        }
        return inFlight
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
        let json = (try? JSONSerialization.data(withJSONObject: route.parameters, options: [.sortedKeys]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return [
            "{target}": route.target,
            "{invocation-id}": attempt.invocation.id,
            "{source}": route.source.rawValue,
            "{parameters-json}": json,
        ]
    }
}
