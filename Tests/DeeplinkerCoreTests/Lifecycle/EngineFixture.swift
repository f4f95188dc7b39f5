import DeeplinkerCore
import DeeplinkerTestSupport

/// Shared set-up for the lifecycle tests: one configured app, a test clock and effect helpers.
struct EngineFixture {
    static let app = "com.bestrecipes.App"
    static let owner = ":1.10"

    let clock = TestClock()
    var engine: DeeplinkEngine

    init(policy: AppPolicy = AppPolicy()) {
        engine = DeeplinkEngine(clock: clock, policies: [Self.app: policy])
    }

    /// A routed request for the fixture app.
    static func request(_ id: String, target: String = "recipe", key: String? = nil, source: Source = .url) -> InvocationRequest {
        InvocationRequest(
            id: id,
            appID: app,
            route: Route(target: target, parameters: ["id": id], source: source),
            dedupeKey: key
        )
    }

    /// Admits a request and returns its effects.
    @discardableResult
    mutating func receive(_ id: String, target: String = "recipe", key: String? = nil) throws -> [EngineEffect] {
        try engine.receive(Self.request(id, target: target, key: key)).effects
    }

    /// Gives the app an owner and reports it active from that owner.
    @discardableResult
    mutating func activate(owner: String = EngineFixture.owner) throws -> [EngineEffect] {
        if engine.owner(of: Self.app) != owner {
            _ = engine.nameOwnerChanged(appID: Self.app, newOwner: owner)
        }
        return try engine.lifecycleSignal(.becameActive, appID: Self.app, sender: owner)
    }
}

extension Array where Element == EngineEffect {
    /// The delivery orders among the effects.
    var deliveries: [DeliveryAttempt] {
        compactMap { if case .deliver(let attempt) = $0 { attempt } else { nil } }
    }

    /// `(invocation id, status)` of every status change, in order.
    var statuses: [String] {
        compactMap { if case .statusChanged(let inv) = $0 { "\(inv.id):\(inv.status.rawValue)" } else { nil } }
    }

    /// The changed invocations, in order.
    var changedInvocations: [Invocation] {
        compactMap { if case .statusChanged(let inv) = $0 { inv } else { nil } }
    }

    /// The app ids to launch.
    var launches: [String] {
        compactMap { if case .launch(let summons) = $0 { summons.appID } else { nil } }
    }

    /// The raise requests, in order.
    var raises: [Summons] {
        compactMap { if case .raise(let summons) = $0 { summons } else { nil } }
    }

    /// The app states recorded.
    var appStates: [AppStateRecord] {
        compactMap { if case .appStateChanged(let record) = $0 { record } else { nil } }
    }
}
