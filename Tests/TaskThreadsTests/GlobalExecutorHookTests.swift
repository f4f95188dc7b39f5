import Testing
@testable import TaskThreads

/// The compare-and-exchange that installs the global-executor hook: it takes an empty slot and
/// leaves someone else's hook in place, naming it.
@Suite("the global-executor hook")
struct GlobalExecutorHookTests {
    static var ours: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 0x1000)! }
    static var theirs: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 0x2000)! }

    @Test("an empty slot gets the hook")
    func emptySlot() throws {
        var slot: UnsafeMutableRawPointer? = nil
        try JobThreads.exchangeHook(in: &slot, for: Self.ours)
        #expect(slot == Self.ours)
    }

    @Test("a slot holding another hook keeps it, and the refusal names it")
    func anotherHook() {
        var slot: UnsafeMutableRawPointer? = Self.theirs
        #expect(throws: GlobalExecutorHookError.anotherHookInstalled(address: 0x2000)) {
            try JobThreads.exchangeHook(in: &slot, for: Self.ours)
        }
        #expect(slot == Self.theirs)
        #expect(GlobalExecutorHookError.anotherHookInstalled(address: 0x2000).description.contains("0x2000) is already installed"))
    }
}
