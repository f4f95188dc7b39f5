import Foundation

/// Resident memory of a process from `/proc/PID/status`.
enum ProcessMemory {
    /// `VmRSS` and `VmHWM` (peak) in KiB of `pid` ("self" by default); nil when unreadable.
    static func read(pid: String = "self") -> (rss: Int, peak: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        var rss: Int?
        var peak: Int?
        for line in text.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2 else { continue }
            switch fields[0] {
            case "VmRSS:": rss = Int(fields[1])
            case "VmHWM:": peak = Int(fields[1])
            default: break
            }
        }
        guard let rss, let peak else { return nil }
        return (rss, peak)
    }
}
