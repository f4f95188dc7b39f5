import DBusKit
import Foundation
import Synchronization
import DeeplinkerProtocol

/// The stand-in app of the tests (in-process; `PythonStandIn` is the one a launch starts). An app
/// as the daemon sees it: a bus connection that (usually) owns the app id's name, answers
/// `org.freedesktop.Application.ActivateAction` and `Activate` at the app's object path and emits
/// `org.deeplinker.Lifecycle1` signals there.
public final class StandInApp: Sendable {
    /// How the stand-in answers `ActivateAction`.
    public enum Answer: Sendable {
        case acknowledge
        case refuse(String)
        /// Never answers (until `answerHeldCalls()`).
        case hang
    }

    /// One `ActivateAction` call as received.
    public struct Received: Sendable {
        public let target: String
        public let parameters: [String: String]
        public let platformData: [String: DBusValue]
        /// Whether the daemon's reply to the stand-in's own `SetAppState` had arrived before this call.
        public let afterSetAppStateReply: Bool

        public var invocationID: String { platformData["deeplinker.invocation-id"]?.stringValue ?? "" }
        public var source: String { platformData["deeplinker.source"]?.stringValue ?? "" }
        public var isRedelivery: Bool { platformData["deeplinker.redelivery"]?.boolValue ?? false }
    }

    public let appID: String
    public let path: String
    public let connection: DBusConnection
    public let received = Recorder<Received>()
    /// `platform_data` of each `org.freedesktop.Application.Activate` call (a raise).
    public let activations = Recorder<[String: DBusValue]>()
    private let answer: Locked<Answer>
    private let held = Locked<[DBusMethodCall]>([])
    private let setAppStateReplied = Locked<Bool>(false)

    public var uniqueName: String { connection.uniqueName }

    /// Connects, exports the app object and, if `ownName`, takes the app id's name.
    public init(_ appID: String, busAddress: String, answer: Answer = .acknowledge, ownName: Bool = true) async throws {
        self.appID = appID
        path = Self.objectPath(appID)
        self.answer = Locked(answer)
        connection = try DBusConnection(address: busAddress)
        let recorder = received
        let answerBox = self.answer
        let heldBox = held
        let replied = setAppStateReplied
        let method = DBusMethod(
            "ActivateAction", in: [DBusArgument("action_name", "s"), DBusArgument("parameter", "av"), DBusArgument("platform_data", "a{sv}")]
        ) { call in
            let target = call.arguments[0].stringValue ?? ""
            let parameters = call.arguments[1].arrayElements?.first?.stringDictionaryValue ?? [:]
            let data = call.arguments[2].variantDictionaryValue ?? [:]
            let current = answerBox.value
            switch current {
            case .acknowledge: call.reply()
            case .refuse(let name): call.fail(DBusError(name: name, message: "the stand-in refuses '\(target)'"))
            case .hang: heldBox.mutate { $0.append(call) }
            }
            recorder.put(Received(
                target: target, parameters: parameters, platformData: data,
                afterSetAppStateReply: replied.value))
        }
        let activations = self.activations
        let activate = DBusMethod("Activate", in: [DBusArgument("platform_data", "a{sv}")]) { call in
            activations.put(call.arguments.first?.variantDictionaryValue ?? [:])
            call.reply()
        }
        try connection.export(DBusObject(
            path: path, interfaces: [DBusInterface("org.freedesktop.Application", methods: [activate, method])]))
        if ownName {
            try await takeName()
        }
    }

    public static func objectPath(_ appID: String) -> String {
        DeeplinkerBus.objectPath(forAppID: appID)
    }

    public func takeName() async throws {
        let reply = try await connection.requestName(appID)
        guard reply == .primaryOwner else { throw DBusError.failed("\(appID) is already owned") }
    }

    public func setAnswer(_ new: Answer) { answer.set(new) }

    /// Answers the calls held by `.hang` (the daemon may have stopped waiting).
    public func answerHeldCalls() {
        for call in held.mutate({ calls in defer { calls.removeAll() }; return calls }) { call.reply() }
    }

    public var heldCount: Int { held.value.count }

    /// Emits a lifecycle signal (`BecameActive`, `WillResignActive`, `DidEnterBackground`, `WillEnterForeground`).
    public func emit(_ member: String) throws {
        try connection.emitSignal(path: path, interface: "org.deeplinker.Lifecycle1", member: member)
    }

    public func becomeActive() throws { try emit("BecameActive") }

    /// Calls the daemon from this connection, so the call is ordered after this app's signals.
    public func callDaemon(_ member: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await connection.call(
            destination: "org.deeplinker.Deeplinker1", path: "/org/deeplinker/Deeplinker1",
            interface: "org.deeplinker.Deeplinker1", member: member, arguments: arguments)
    }

    /// The daemon's view of this app's state, asked after everything this app emitted so far.
    public func stateSeenByDaemon() async throws -> String {
        try await callDaemon("GetAppState", [.string(appID)]).first?.stringValue ?? ""
    }

    /// `SetAppState` from this connection; records when its reply arrives (on the loop thread, so
    /// `Received.afterSetAppStateReply` tells whether the reply came before a delivery).
    public func setAppState(_ state: String) async throws {
        let message = try DBusMessage.methodCall(
            destination: "org.deeplinker.Deeplinker1", path: "/org/deeplinker/Deeplinker1",
            interface: "org.deeplinker.Deeplinker1", member: "SetAppState", arguments: [.string(appID), .string(state)])
        let replied = setAppStateReplied
        let result: Result<DBusMessage, DBusError> = await withCheckedContinuation { continuation in
            connection.startCall(message, timeout: nil) { result in
                if case .success = result { replied.set(true) }
                continuation.resume(returning: result)
            }
        }
        _ = try result.get()
    }

    public func close() {
        answerHeldCalls()
        connection.close()
    }
}
