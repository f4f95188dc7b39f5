import Foundation

/// The floor under every durable reply: the latency of `fsync(2)` after a small write, measured in
/// the daemon's state directory in the same run (a durable commit, its WAL `fdatasync`ed, costs at
/// least one).
enum FsyncProbe {
    /// `count` fsyncs of a 4 KiB append to a scratch file in `directory`; nil if the file cannot be made.
    static func measure(in directory: String, count: Int) -> Stats? {
        let path = (directory as NSString).appendingPathComponent("fsync-probe")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        defer {
            close(fd)
            unlink(path)
        }
        let block = [UInt8](repeating: 0x2A, count: 4096)
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            _ = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            let start = clock.now
            guard fsync(fd) == 0 else { return nil }
            samples.append(Stats.microseconds(start.duration(to: clock.now)))
        }
        return Stats(microseconds: samples)
    }
}
