import Foundation

/// CPU time and context switches of a whole process from `/proc`: `utime` + `stime` of
/// `/proc/PID/stat` (every thread, exited ones included) and the context switches of each live
/// thread in `/proc/PID/task/*/status`. CPU time is steadier than latency on a shared machine.
struct ProcessCPU: Sendable {
    /// User and system time in microseconds.
    var user: Double
    var system: Double
    var total: Double { user + system }

    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// The CPU time of `pid` so far; nil when unreadable.
    static func read(pid: Int32) -> ProcessCPU? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm) ": field 3 (state) is index 0, so utime (14) is 11 and stime (15) is 12.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let utime = Double(fields[11]), let stime = Double(fields[12]) else { return nil }
        return ProcessCPU(user: utime / ticksPerSecond * 1e6, system: stime / ticksPerSecond * 1e6)
    }

    /// Nanoseconds on a CPU of every live thread of `pid` (the first field of
    /// `/proc/PID/task/*/schedstat`): exact where `stat`'s ticks are 10 ms, for short runs such as
    /// a start-up.
    static func threadRunTime(pid: Int32) -> Double? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        var total = 0.0
        for task in tasks {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
                let first = text.split(separator: " ").first, let nanoseconds = Double(first)
            else { continue }
            total += nanoseconds
        }
        return total
    }

    /// Voluntary plus involuntary context switches summed over the live threads of `pid`: each is
    /// a thread going to sleep or being woken, so an idle daemon should add none.
    static func contextSwitches(pid: Int32) -> Int? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        var total = 0
        for task in tasks {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                if fields.count == 2, fields[0] == "voluntary_ctxt_switches:" || fields[0] == "nonvoluntary_ctxt_switches:" {
                    total += Int(fields[1]) ?? 0
                }
            }
        }
        return total
    }

    /// Bytes written through write-like calls (`wchar`) and the number of those calls (`syscw`)
    /// from `/proc/PID/io`: the SQLite pages, WAL frames and socket messages a call costs.
    static func writes(pid: Int32) -> (bytes: Int, calls: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return nil }
        var bytes: Int?
        var calls: Int?
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2 else { continue }
            if fields[0] == "wchar:" { bytes = Int(fields[1]) }
            if fields[0] == "syscw:" { calls = Int(fields[1]) }
        }
        guard let bytes, let calls else { return nil }
        return (bytes, calls)
    }

    /// Number of threads of `pid`.
    static func threadCount(pid: Int32) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"))?.count
    }

    /// The change from `earlier` to `self`.
    func minus(_ earlier: ProcessCPU) -> ProcessCPU {
        ProcessCPU(user: user - earlier.user, system: system - earlier.system)
    }
}
