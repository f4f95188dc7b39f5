import CMallocTuning
import FoundationEssentials
import Glibc

/// glibc malloc settings for the long-running daemon, applied first thing in `run(_:)`.
///
/// Under `scripts/soak` (64 clients, deliveries, a 10,000-row `GetHistory` every 4,000 invocations;
/// heap figures from `malloc_stats()` called through `gdb -p`) RSS
/// wandered between 80 and 120 MiB with 13–22 MB of heap in use: glibc gave each of the daemon's
/// ~13 threads its own arena (up to 8 × cores), each kept the free memory of its own transient peak
/// (12–17 MB in several of them), and the dynamic mmap threshold had climbed to 6.6 MB after large
/// replies were freed, which also raised the trim threshold to twice that. So:
/// - at most 2 arenas: the threads share their free memory instead of each keeping its own;
/// - a fixed 256 KiB mmap threshold (which also fixes the trim threshold at its 128 KiB default):
///   large buffers go back to the system when freed.
/// An explicit `GLIBC_TUNABLES` malloc setting (`glibc.malloc.…`) wins: nothing is changed then.
enum MallocTuning {
    static let arenaMax: Int32 = 2
    static let mmapThreshold: Int32 = 256 * 1024

    /// Applies the settings; returns one message per setting glibc refused (the daemon logs them
    /// once its logger exists: it runs, with glibc's defaults for that setting).
    static func apply(environment: [String: String]) -> [String] {
        if let tunables = environment["GLIBC_TUNABLES"], tunables.contains("glibc.malloc.") { return [] }
        return refusals(arenaMax: cmalloc_set_arena_max(arenaMax), mmapThreshold: cmalloc_set_mmap_threshold(mmapThreshold))
    }

    /// The messages for mallopt's results (1 on success, 0 on error).
    static func refusals(arenaMax arenaResult: Int32, mmapThreshold thresholdResult: Int32) -> [String] {
        var failed: [String] = []
        if arenaResult != 1 { failed.append("mallopt(M_ARENA_MAX, \(arenaMax)) failed; glibc's default number of arenas stays") }
        if thresholdResult != 1 { failed.append("mallopt(M_MMAP_THRESHOLD, \(mmapThreshold)) failed; glibc's dynamic mmap threshold stays") }
        return failed
    }
}
