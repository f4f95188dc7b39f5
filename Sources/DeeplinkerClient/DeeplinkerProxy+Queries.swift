import DBusKit

extension DeeplinkerProxy {
    /// The app's pending deeplink, nil when there is none.
    public func pending(appID: String) async throws(DBusError) -> PendingRoute? {
        let r = try await call("GetPending", [.string(appID)], expect: "bsssa{ss}x")
        guard r[0].boolValue == true else { return nil }
        return PendingRoute(
            invocationID: r[1].stringValue ?? "", source: r[2].stringValue ?? "", target: r[3].stringValue ?? "",
            parameters: r[4].stringDictionaryValue ?? [:], receivedAtMicroseconds: r[5].int64Value ?? 0)
    }

    /// Discards the pending deeplink; true when there was one.
    public func discardPending(appID: String) async throws(DBusError) -> Bool {
        try await call("DiscardPending", [.string(appID)], expect: "b")[0].boolValue ?? false
    }

    /// Routes `url` without storing anything (`appID` "" = found by the URL).
    public func resolveURL(appID: String, url: String) async throws(DBusError) -> ResolvedURL {
        let r = try await call("ResolveURL", [.string(appID), .string(url)], expect: "ssa{ss}s")
        return ResolvedURL(
            appID: r[0].stringValue ?? "", target: r[1].stringValue ?? "", parameters: r[2].stringDictionaryValue ?? [:],
            routePattern: r[3].stringValue ?? "")
    }

    /// `not-running`, `inactive`, `active` or `background`.
    public func appState(appID: String) async throws(DBusError) -> String {
        try await call("GetAppState", [.string(appID)], expect: "s")[0].stringValue ?? ""
    }

    /// Reports the app's state for callers that cannot emit signals (same sender rule).
    public func setAppState(appID: String, state: String) async throws(DBusError) {
        _ = try await call("SetAppState", [.string(appID), .string(state)], expect: "")
    }

    /// Configured app ids.
    public func listApps() async throws(DBusError) -> [String] {
        try await call("ListApps", expect: "as")[0].stringArray ?? []
    }

    /// Invocations, newest first; `appID` "" = all apps, `limit` 0 = all retained.
    public func history(appID: String = "", limit: UInt32 = 0) async throws(DBusError) -> [HistoryEntry] {
        let r = try await call("GetHistory", [.string(appID), .uint32(limit)], expect: "a(sssssx)")
        return (r[0].arrayElements ?? []).compactMap { row in
            guard let f = row.structureFields, f.count == 6 else { return nil }
            return HistoryEntry(
                invocationID: f[0].stringValue ?? "", appID: f[1].stringValue ?? "", source: f[2].stringValue ?? "",
                target: f[3].stringValue ?? "", status: f[4].stringValue ?? "", receivedAtMicroseconds: f[5].int64Value ?? 0)
        }
    }

    /// One retained invocation with its `detail` (`GetInvocation`); `UnknownInvocation` when not retained.
    public func invocation(id: String) async throws(DBusError) -> InvocationDetails {
        let r = try await call("GetInvocation", [.string(id)], expect: "a{sv}")
        return InvocationDetails(r[0].variantDictionaryValue ?? [:])
    }

    /// Publishes exactly these of the app's configured shortcuts.
    public func setShortcuts(appID: String, types: [String]) async throws(DBusError) {
        _ = try await call("SetShortcuts", [.string(appID), .strings(types)], expect: "")
    }

    /// Shows a notification whose click invokes the app with `payloadJSON`.
    public func postNotification(appID: String, summary: String, body: String, payloadJSON: String) async throws(DBusError) -> UInt32 {
        try await call("PostNotification", [.string(appID), .string(summary), .string(body), .string(payloadJSON)], expect: "u")[0].uint32Value ?? 0
    }

    /// Re-reads the route files.
    public func reload() async throws(DBusError) {
        _ = try await call("Reload", expect: "")
    }

    /// Tells the daemon which app's window has the input focus (`""`: none); host processes only.
    public func setFocusedApp(_ appID: String) async throws(DBusError) {
        _ = try await call("SetFocusedApp", [.string(appID)], expect: "")
    }

    /// Every app's claimed domains with the verdict of their last check.
    public func linkClaims() async throws(DBusError) -> [LinkClaim] {
        let r = try await call("GetLinkClaims", expect: "a(ssssx)")
        return (r[0].arrayElements ?? []).compactMap { row in
            guard let f = row.structureFields, f.count == 5 else { return nil }
            return LinkClaim(
                appID: f[0].stringValue ?? "", domain: f[1].stringValue ?? "", verdict: f[2].stringValue ?? "",
                detail: f[3].stringValue ?? "", checkedAtMicroseconds: f[4].int64Value ?? 0)
        }
    }

    /// Records a check of an app's domain (`verified`, `not-listed` or `unreachable`); host processes only.
    public func setDomainVerification(appID: String, domain: String, verdict: String, detail: String) async throws(DBusError) {
        _ = try await call("SetDomainVerification", [.string(appID), .string(domain), .string(verdict), .string(detail)], expect: "")
    }

    /// The daemon's `Version` property.
    public func version() async throws(DBusError) -> String {
        let r = try await connection.call(
            destination: destination, path: DeeplinkerNames.objectPath, interface: "org.freedesktop.DBus.Properties",
            member: "Get", arguments: [.string(DeeplinkerNames.interface), .string("Version")], timeout: timeout)
        return r.first?.stringValue ?? ""
    }

    /// Calls `handler` (on the bus thread) for every `InvocationChanged` signal; returns the
    /// subscription token for `connection.unsubscribe`.
    @discardableResult
    public func onInvocationChanged(_ handler: @escaping @Sendable (InvocationChange) -> Void) async throws(DBusError) -> UInt64 {
        let rule = MatchRule(
            sender: destination, interface: DeeplinkerNames.interface, member: "InvocationChanged", path: DeeplinkerNames.objectPath)
        return try await connection.subscribe(rule) { _, args in
            guard args.count == 4 else { return }
            handler(InvocationChange(
                appID: args[0].stringValue ?? "", invocationID: args[1].stringValue ?? "",
                status: args[2].stringValue ?? "", detail: args[3].stringValue ?? ""))
        }
    }
}
