import DBusKit
import DeeplinkerCore

/// The methods' inputs, one type per signature (SPEC §3), with each argument under its name.
enum In {
    struct None: MethodInput {
        static let arguments: [DBusArgument] = []
        init(_ reader: inout ArgumentReader) {}
    }

    /// `org.freedesktop.Application.Activate` on a handler entry.
    struct EntryActivate: MethodInput {
        static let arguments = [DBusArgument("platform_data", "a{sv}")]
        let platformData: DBusValue
        init(_ r: inout ArgumentReader) { platformData = r.variants("platform_data") }
    }

    /// `org.freedesktop.Application.Open` on a handler entry.
    struct EntryOpen: MethodInput {
        static let arguments = [DBusArgument("uris", "as"), DBusArgument("platform_data", "a{sv}")]
        let uris: [String]
        let platformData: DBusValue
        init(_ r: inout ArgumentReader) throws(DeeplinkerError) {
            uris = try r.strings("uris")
            platformData = r.variants("platform_data")
        }
    }

    /// `org.freedesktop.Application.ActivateAction` on a handler entry.
    struct EntryAction: MethodInput {
        static let arguments = [DBusArgument("action_name", "s"), DBusArgument("parameter", "av"), DBusArgument("platform_data", "a{sv}")]
        let action: String
        init(_ r: inout ArgumentReader) throws(DeeplinkerError) {
            action = try r.string("action_name")
            _ = r.raw("parameter", "av")
            _ = r.variants("platform_data")
        }
    }

    struct App: MethodInput {
        static let arguments = [DBusArgument("app_id", "s")]
        let appID: String
        init(_ r: inout ArgumentReader) throws(DeeplinkerError) { appID = try r.string("app_id") }
    }

    struct AppURL: MethodInput {
        static let arguments = [DBusArgument("app_id", "s"), DBusArgument("url", "s")]
        let appID, url: String
        init(_ r: inout ArgumentReader) throws(DeeplinkerError) { (appID, url) = (try r.string("app_id"), try r.string("url")) }
    }

    struct NotificationClick: MethodInput {
        static let arguments = [DBusArgument("app_id", "s"), DBusArgument("payload_json", "s"), DBusArgument("action", "s")]
        let appID, payload, action: String
        init(_ r: inout ArgumentReader) throws(DeeplinkerError) {
            (appID, payload, action) = (try r.string("app_id"), try r.string("payload_json"), try r.string("action"))
        }
    }

    struct Shortcut: MethodInput {
        static let arguments = [DBusArgument("app_id", "s"), DBusArgument("shortcut_type", "s")]
        let appID, type: String
        init(_ r: inout ArgumentReader) throws(DeeplinkerError) { (appID, type) = (try r.string("app_id"), try r.string("shortcut_type")) }
    }

    struct Activity: MethodInput {
        static let arguments = [DBusArgument("app_id", "s"), DBusArgument("activity_type", "s"), DBusArgument("webpage_url", "s")]
        let appID, type, url: String
        init(_ r: inout ArgumentReader) throws(DeeplinkerError) {
            (appID, type, url) = (try r.string("app_id"), try r.string("activity_type"), try r.string("webpage_url"))
        }
    }

    struct LaunchOptions: MethodInput {
        static let arguments = [DBusArgument("app_id", "s"), DBusArgument("launch_options_json", "s")]
        let appID, options: String
        init(_ r: inout ArgumentReader) throws(DeeplinkerError) { (appID, options) = (try r.string("app_id"), try r.string("launch_options_json")) }
    }

    struct Invocation: MethodInput {
        static let arguments = [DBusArgument("app_id", "s"), DBusArgument("source", "s"), DBusArgument("input", "s"), DBusArgument("platform_data", "a{sv}")]
        let appID, source, input: String
        let platformData: DBusValue
        init(_ r: inout ArgumentReader) throws(DeeplinkerError) {
            (appID, source, input) = (try r.string("app_id"), try r.string("source"), try r.string("input"))
            platformData = r.variants("platform_data")
        }
    }

    struct AppState: MethodInput {
        static let arguments = [DBusArgument("app_id", "s"), DBusArgument("state", "s")]
        let appID, state: String
        init(_ r: inout ArgumentReader) throws(DeeplinkerError) { (appID, state) = (try r.string("app_id"), try r.string("state")) }
    }

    struct History: MethodInput {
        static let arguments = [DBusArgument("app_id", "s"), DBusArgument("limit", "u")]
        let appID: String
        let limit: UInt32
        init(_ r: inout ArgumentReader) throws(DeeplinkerError) { (appID, limit) = (try r.string("app_id"), r.uint32("limit")) }
    }

    struct Shortcuts: MethodInput {
        static let arguments = [DBusArgument("app_id", "s"), DBusArgument("shortcut_types", "as")]
        let appID: String
        let types: [String]
        init(_ r: inout ArgumentReader) throws(DeeplinkerError) { (appID, types) = (try r.string("app_id"), try r.strings("shortcut_types")) }
    }

    struct Notification: MethodInput {
        static let arguments = [DBusArgument("app_id", "s"), DBusArgument("summary", "s"), DBusArgument("body", "s"), DBusArgument("payload_json", "s")]
        let appID, summary, body, payload: String
        init(_ r: inout ArgumentReader) throws(DeeplinkerError) {
            (appID, summary, body, payload) = (try r.string("app_id"), try r.string("summary"), try r.string("body"), try r.string("payload_json"))
        }
    }
}

extension In {
    struct DomainVerification: MethodInput {
        static let arguments = [DBusArgument("app_id", "s"), DBusArgument("domain", "s"), DBusArgument("verdict", "s"), DBusArgument("detail", "s")]
        let appID, domain, verdict, detail: String
        init(_ r: inout ArgumentReader) throws(DeeplinkerError) {
            (appID, domain, verdict, detail) = (try r.string("app_id"), try r.string("domain"), try r.string("verdict"), try r.string("detail"))
        }
    }
}

/// The methods' replies, one type per output signature (SPEC §3).
enum Out {
    struct None: MethodOutput {
        static let arguments: [DBusArgument] = []
        var values: [DBusValue] { [] }
    }

    /// An invocation's id, target and parameters (all empty when nothing was routed).
    struct Route: MethodOutput {
        static let arguments = [DBusArgument("invocation_id", "s"), DBusArgument("target", "s"), DBusArgument("parameters", "a{ss}")]
        let reply: InvocationReply
        var values: [DBusValue] { [.string(reply.id), .string(reply.target), .stringDictionary(reply.parameters)] }
    }

    /// `Launch`: the kind of launch, then the route.
    struct Launch: MethodOutput {
        static let arguments = [DBusArgument("kind", "s")] + Route.arguments
        let reply: InvocationReply
        var values: [DBusValue] { [.string(reply.kind ?? "")] + Route(reply: reply).values }
    }

    struct Pending: MethodOutput {
        static let arguments = [
            DBusArgument("present", "b"), DBusArgument("invocation_id", "s"), DBusArgument("source", "s"), DBusArgument("target", "s"), DBusArgument("parameters", "a{ss}"),
            DBusArgument("received_at_usec", "x"),
        ]
        let invocation: DeeplinkerCore.Invocation?
        var values: [DBusValue] {
            guard let invocation, let route = invocation.route else {
                return [.boolean(false), .string(""), .string(""), .string(""), .stringDictionary([:]), .int64(0)]
            }
            return [
                .boolean(true), .string(invocation.id), .string(route.source.rawValue), .string(route.target),
                .stringDictionary(route.parameters), .int64(invocation.receivedAt),
            ]
        }
    }

    struct Discarded: MethodOutput {
        static let arguments = [DBusArgument("discarded", "b")]
        let discarded: Bool
        var values: [DBusValue] { [.boolean(discarded)] }
    }

    struct Resolved: MethodOutput {
        static let arguments = [DBusArgument("app_id", "s"), DBusArgument("target", "s"), DBusArgument("parameters", "a{ss}"), DBusArgument("route_pattern", "s")]
        let resolved: ResolvedRoute
        var values: [DBusValue] {
            [
                .string(resolved.appID), .string(resolved.route.target), .stringDictionary(resolved.route.parameters),
                .string(resolved.routePattern ?? ""),
            ]
        }
    }

    struct State: MethodOutput {
        static let arguments = [DBusArgument("state", "s")]
        let state: DeeplinkerCore.AppState
        var values: [DBusValue] { [.string(state.rawValue)] }
    }

    struct AppIDs: MethodOutput {
        static let arguments = [DBusArgument("app_ids", "as")]
        let appIDs: [String]
        var values: [DBusValue] { [.strings(appIDs)] }
    }

    struct History: MethodOutput {
        static let arguments = [DBusArgument("invocations", "a(sssssx)")]
        let rows: [HistoryEntry]
        var values: [DBusValue] {
            [.array(elementSignature: "(sssssx)", rows.map { row in
                .structure([
                    .string(row.id), .string(row.appID), .string(row.source.rawValue),
                    .string(row.target), .string(row.status.rawValue), .int64(row.receivedAt),
                ])
            })]
        }
    }

    struct NotificationID: MethodOutput {
        static let arguments = [DBusArgument("notification_id", "u")]
        let id: UInt32
        var values: [DBusValue] { [.uint32(id)] }
    }
}

extension Out {
    /// `GetLinkClaims`: (app_id, domain, verdict, detail, checked_at_usec; 0 = never).
    struct LinkClaims: MethodOutput {
        struct Row: Sendable, Equatable {
            let appID, domain, verdict, detail: String
            let checkedAt: Int64
        }
        static let arguments = [DBusArgument("claims", "a(ssssx)")]
        let rows: [Row]
        var values: [DBusValue] {
            [.array(elementSignature: "(ssssx)", rows.map { .structure([.string($0.appID), .string($0.domain), .string($0.verdict), .string($0.detail), .int64($0.checkedAt)]) })]
        }
    }
}
