import Glibc

/// Draws a `TopModel` as exactly `height` lines of at most `width` columns: a header, the app
/// table, a rule, the invocation table (scrolled), and the key help or the filter being typed.
public enum TopRenderer {
    public static func render(_ model: TopModel, width: Int, height: Int, now: Int64) -> [String] {
        let width = max(20, width)
        let height = max(6, height)
        var lines: [String] = []
        let apps = model.visibleApps
        let pending = apps.filter { $0.pendingTarget != nil }.count
        let filter = model.filter.isEmpty ? "" : "  filter: \(model.filter)"
        lines.append("deeplinker top  \(apps.count) apps, \(pending) pending\(filter)")
        lines.append(row([("APP", 28), ("STATE", 12), ("READY", 7), ("PENDING", 18), ("AGE", 7), ("TRIES", 6), ("LAST ERROR", 0)]))
        // Apps get at most half of the screen; invocations the rest.
        let appRoom = max(1, (height - 6) / 2)
        for app in apps.prefix(appRoom) {
            let age = app.pendingSince.map { DoctorChecks.ageText(seconds: max(0, now - $0) / 1_000_000) } ?? ""
            lines.append(row([
                (app.appID, 28), (app.state, 12), (app.readiness, 7), (app.pendingTarget ?? "-", 18), (age, 7),
                (String(app.attempts), 6), (app.lastError, 0),
            ]))
        }
        if apps.count > appRoom { lines.append("  … \(apps.count - appRoom) more apps") }
        lines.append(String(repeating: "─", count: width))
        lines.append(row([("TIME", 13), ("APP", 28), ("SOURCE", 15), ("TARGET", 18), ("STATUS", 11), ("DETAIL", 0)]))
        let room = max(0, height - lines.count - 1)
        let invocations = model.visibleInvocations.dropFirst(model.scroll).prefix(room)
        for invocation in invocations {
            lines.append(row([
                (clock(invocation.receivedAt), 13), (invocation.appID, 28), (invocation.source, 15), (invocation.target, 18),
                (invocation.status, 11), (invocation.detail, 0),
            ]))
        }
        while lines.count < height - 1 { lines.append("") }
        lines.append(model.editingFilter
            ? "filter by app: \(model.filter)▏ (Enter keeps it, Esc clears it)"
            : "q quit  / filter by app  ↑↓ PgUp PgDn scroll  \(width)x\(height)")
        return lines.map { fit($0, width) }
    }

    /// Columns padded to their widths (0 = the rest of the line), separated by a space.
    static func row(_ cells: [(String, Int)]) -> String {
        cells.map { text, width in width == 0 ? text : pad(fit(text, width), width) }.joined(separator: " ")
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func fit(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }

    /// `HH:MM:SS.mmm` of a µs timestamp, local time.
    static func clock(_ microseconds: Int64) -> String {
        var seconds = time_t(microseconds / 1_000_000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        let ms = Int(microseconds / 1_000 % 1_000)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let millis = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(millis)"
    }
}
