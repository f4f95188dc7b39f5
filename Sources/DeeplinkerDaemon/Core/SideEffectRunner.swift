import DBusKit
import DeeplinkerCore
import Logging

/// Consumes committed effect batches in order: emits `InvocationChanged`, starts deliveries and
/// launches. Deliveries run as their own tasks so a slow app never holds up another.
struct SideEffectRunner: Sendable {
    let core: DaemonCore
    let connection: DBusConnection
    let logger: Logger

    func run(_ queue: SideEffectQueue) async {
        let deliverer = Deliverer(connection: connection)
        let launcher = Launcher(connection: connection, logger: logger)
        for await batch in queue.stream {
            do {
                try await batch.commit.wait()
            } catch {
                logger.error("a change was not stored, its signals and deliveries are skipped: \(error)")
                continue
            }
            for effect in batch.effects {
                switch effect {
                case .statusChanged(let invocation):
                    try? connection.emitSignal(
                        path: DeeplinkerAPI.objectPath, interface: DeeplinkerAPI.interface, member: "InvocationChanged",
                        arguments: [
                            .string(invocation.appID), .string(invocation.id), .string(invocation.status.rawValue),
                            .string(invocation.detail),
                        ])
                case .deliver(let attempt):
                    Task {
                        let outcome = await deliverer.deliver(attempt)
                        logger.debug("delivery of \(attempt.invocation.id) attempt \(attempt.attempt): \(outcome)")
                        // Our own connection closed under the call (shutdown): the outcome is unknown,
                        // not a refusal. Leave it `delivering` so the next start redelivers it, flagged.
                        if outcome != .acknowledged && connection.isClosed { return }
                        await core.deliveryFinished(
                            outcome, appID: attempt.invocation.appID, invocationID: attempt.invocation.id, attempt: attempt.attempt)
                    }
                case .launch(let appID):
                    guard let mode = await core.config(appID)?.launch else { continue }
                    Task { await launcher.launch(appID, mode: mode) }
                case .appStateChanged(let record):
                    logger.info("\(record.appID) is \(record.state.rawValue)\(record.owner.map { " (\($0))" } ?? "")")
                }
            }
        }
    }
}
