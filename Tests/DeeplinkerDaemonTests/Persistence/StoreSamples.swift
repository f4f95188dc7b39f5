import DeeplinkerCore

/// Sample records for the persistence tests.
enum StoreSamples {
    static let app = "com.bestrecipes.App"

    /// An invocation with every field set; `at` is its receipt time in µs.
    static func invocation(
        _ id: String,
        app: String = StoreSamples.app,
        status: InvocationStatus = .pending,
        at time: Int64 = 1_000,
        revision: Int = 0
    ) -> Invocation {
        Invocation(
            id: id,
            appID: app,
            source: .notification,
            route: Route(target: "messages.details", parameters: ["id": id, "emoji": "é/✓"], source: .notification),
            status: status,
            detail: status == .failed ? "org.example.Error.Busy (3 attempts)" : "",
            receivedAt: time,
            updatedAt: time + 5,
            attempts: 2,
            redelivery: true,
            platformData: ["activation-token": "tok", "deeplinker.action": "reply"],
            dedupeKey: "notification:\(id)",
            launchKind: "notification",
            revision: revision
        )
    }
}
