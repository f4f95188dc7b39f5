import DeeplinkerCore
import Foundation
import GRDB

extension SQLiteInvocationStore {
    /// The invocation columns, in the order ``InvocationRowBinding`` binds them as `?1`…`?16`.
    static let invocationColumns = """
        id, app_id, source, status, detail, received_at, updated_at, target, route_source, parameters, \
        launch_kind, dedupe_key, platform_data, attempts, redelivery, revision
        """

    /// Decodes an invocation row; an unreadable row is reported as corruption naming the invocation.
    static func invocation(from row: Row) throws -> Invocation {
        let id: String = row["id"]
        func fail(_ what: String) -> StoreError {
            .corrupt(path: "invocation \(id)", reason: what)
        }
        guard let source = Source(rawValue: row["source"]) else { throw fail("unknown source") }
        guard let status = InvocationStatus(rawValue: row["status"]) else { throw fail("unknown status") }
        var route: Route?
        if let target: String = row["target"] {
            guard let routeSource = Source(rawValue: row["route_source"] ?? "") else { throw fail("unknown route source") }
            let parameters = try decodeJSON(row["parameters"] ?? "{}", orThrow: fail("bad parameters JSON"))
            route = Route(target: target, parameters: parameters, source: routeSource)
        }
        return Invocation(
            id: id,
            appID: row["app_id"],
            source: source,
            route: route,
            status: status,
            detail: row["detail"],
            receivedAt: row["received_at"],
            updatedAt: row["updated_at"],
            attempts: row["attempts"],
            redelivery: row["redelivery"],
            platformData: try decodeJSON(row["platform_data"], orThrow: fail("bad platform data JSON")),
            dedupeKey: row["dedupe_key"],
            launchKind: row["launch_kind"],
            revision: row["revision"]
        )
    }

    /// A string map as compact JSON with sorted keys.
    static func encodeJSON(_ map: [String: String]) -> String {
        StringMapJSON.encode(map)
    }

    /// Decodes a string map stored by ``encodeJSON(_:)``.
    static func decodeJSON(_ text: String, orThrow error: StoreError) throws -> [String: String] {
        guard let map = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else { throw error }
        return map
    }
}
