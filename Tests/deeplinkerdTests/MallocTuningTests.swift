import CMallocTuning
import Glibc
import Testing
@testable import deeplinkerd

/// A malloc setting glibc refuses is reported (the daemon logs each message), not ignored.
@Suite("MallocTuning")
struct MallocTuningTests {
    /// Under AddressSanitizer malloc is the sanitizer's, whose `mallopt` takes nothing.
    static let underAddressSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

    @Test("this glibc takes both settings: nothing to report", .disabled(if: underAddressSanitizer, "malloc is AddressSanitizer's"))
    func glibcTakesThem() {
        #expect(MallocTuning.apply(environment: [:]).isEmpty)
        #expect(cmalloc_set_arena_max(MallocTuning.arenaMax) == 1)
    }

    @Test("each refused setting gives a message naming it; none when both are taken")
    func refusals() {
        #expect(MallocTuning.refusals(arenaMax: 1, mmapThreshold: 1).isEmpty)
        let both = MallocTuning.refusals(arenaMax: 0, mmapThreshold: 0)
        #expect(both.count == 2)
        #expect(both[0].contains("M_ARENA_MAX, 2"))
        #expect(both[1].contains("M_MMAP_THRESHOLD, 262144"))
        #expect(MallocTuning.refusals(arenaMax: 1, mmapThreshold: 0).count == 1)
    }

    @Test("an explicit GLIBC_TUNABLES malloc setting wins: nothing is applied, nothing refused")
    func tunablesWin() {
        #expect(MallocTuning.apply(environment: ["GLIBC_TUNABLES": "glibc.malloc.arena_max=4"]).isEmpty)
    }
}
