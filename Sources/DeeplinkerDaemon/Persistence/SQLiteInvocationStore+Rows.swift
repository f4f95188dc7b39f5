import DeeplinkerCore
import FoundationEssentials
import SQLite

extension SQLiteInvocationStore {
    /// The invocation columns, in the order ``InvocationRowBinding`` binds them as `?1`…`?16`.
    static let invocationColumns = """
        id, app_id, source, status, detail, received_at, updated_at, target, route_source, parameters, \
        launch_kind, dedupe_key, platform_data, attempts, redelivery, revision
        """

    /// `SELECT` of the invocation columns, in ``invocationColumns`` order (read back by ``invocation(from:)``).
    static let selectInvocation = "SELECT \(invocationColumns) FROM invocation"

    /// Decodes the current row of a ``selectInvocation`` statement.
    static func invocation(from row: SQLiteStatement) throws -> Invocation {
        try invocation(text: { row.text($0 - 1) }, integer: { row.integer($0 - 1) })
    }

    /// Decodes an invocation from its 16 columns, numbered 1…16 in ``invocationColumns`` order (the
    /// table's row, or a v4 journal record's); an unreadable row is reported as corruption naming it.
    static func invocation(text: (Int32) -> String?, integer: (Int32) -> Int64) throws -> Invocation {
        let id = text(1) ?? ""
        func fail(_ what: String) -> StoreError {
            .corrupt(path: "invocation \(id)", reason: what)
        }
        guard let source = Source(rawValue: text(3) ?? "") else { throw fail("unknown source") }
        guard let status = InvocationStatus(rawValue: text(4) ?? "") else { throw fail("unknown status") }
        var route: Route?
        if let target = text(8) {
            guard let routeSource = Source(rawValue: text(9) ?? "") else { throw fail("unknown route source") }
            let parameters = try decodeJSON(text(10) ?? "{}", orThrow: fail("bad parameters JSON"))
            route = Route(target: target, parameters: parameters, source: routeSource)
        }
        return Invocation(
            id: id,
            appID: text(2) ?? "",
            source: source,
            route: route,
            status: status,
            detail: text(5) ?? "",
            receivedAt: integer(6),
            updatedAt: integer(7),
            attempts: Int(integer(14)),
            redelivery: integer(15) != 0,
            platformData: try decodeJSON(text(13) ?? "{}", orThrow: fail("bad platform data JSON")),
            dedupeKey: text(12),
            launchKind: text(11),
            revision: Int(integer(16))
        )
    }

    /// A string map as compact JSON with sorted keys.
    static func encodeJSON(_ map: [String: String]) -> String {
        StringMapJSON.encode(map)
    }

    /// Decodes a string map stored by ``encodeJSON(_:)``.
    static func decodeJSON(_ text: String, orThrow error: StoreError) throws -> [String: String] {
        guard let map = StringMapJSON.decode(text) else { throw error }
        return map
    }
}
