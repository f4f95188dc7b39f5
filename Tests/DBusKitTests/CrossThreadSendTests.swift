@testable import DBusKit
import DeeplinkerTestSupport
import Foundation
import Testing

/// Messages sent from threads other than the connection's loop: written by the sender while the
/// loop sleeps (no wake-up), handed to the loop while it is awake, in each thread's order either
/// way, and never written to a connection being closed.
@Suite struct CrossThreadSendTests {
    static let interface = "org.example.Cross"

    /// A connection on `fixture` recording the `(thread, index)` of each `member` signal.
    static func listen(for member: String, on fixture: BusFixture) async throws -> (DBusConnection, Recorder<[Int]>) {
        let listener = try fixture.connect()
        let got = Recorder<[Int]>()
        try await listener.subscribe(MatchRule(interface: interface, member: member)) { _, args in
            got.put(args.compactMap { $0.uint32Value.map(Int.init) })
        }
        return (listener, got)
    }

    static func send(_ member: String, on emitter: DBusConnection, thread: Int, index: Int) {
        try? emitter.emitSignal(path: "/", interface: interface, member: member, arguments: [.uint32(UInt32(thread)), .uint32(UInt32(index))])
    }

    /// Waits until the connection's loop sleeps in `poll(2)` with nothing to do.
    static func untilLoopSleeps(_ connection: DBusConnection) async {
        while !connection.loop.isAsleepWithNothingQueued { await Task.yield() }
    }

    @Test("a message larger than the socket's buffer, sent while the loop sleeps, arrives whole: the loop is woken to write the rest")
    func largeMessageFromASleepingLoop() async throws {
        let fixture = try BusFixture()
        let listener = try fixture.connect()
        defer { listener.close() }
        let got = Recorder<Int>()
        try await listener.subscribe(MatchRule(interface: Self.interface, member: "Large")) { _, args in
            got.put(args.first?.stringValue?.utf8.count ?? -1)
        }
        let emitter = try fixture.connect()
        defer { emitter.close() }
        await Self.untilLoopSleeps(emitter)
        let large = String(repeating: "x", count: 4 << 20)
        try emitter.emitSignal(path: "/", interface: Self.interface, member: "Large", arguments: [.string(large)])
        #expect(try await got.next() == 4 << 20)
    }

    @Test("messages sent from four threads arrive complete and in each thread's order")
    func eachThreadsOrder() async throws {
        let fixture = try BusFixture()
        let (listener, got) = try await Self.listen(for: "Numbered", on: fixture)
        defer { listener.close() }
        let emitter = try fixture.connect()
        defer { emitter.close() }
        let (threads, each) = (4, 500)
        for thread in 0..<threads {
            Thread {
                for index in 0..<each { Self.send("Numbered", on: emitter, thread: thread, index: index) }
            }.start()
        }
        let all = try await got.wait(count: threads * each) { _ in true }
        for thread in 0..<threads {
            #expect(all.filter { $0.first == thread }.map { $0[1] } == Array(0..<each), "thread \(thread)")
        }
    }

    @Test("close() while other threads send: what was sent before it arrives in order, nothing is written after it")
    func closeWhileOthersSend() async throws {
        let fixture = try BusFixture()
        let (listener, got) = try await Self.listen(for: "Until", on: fixture)
        defer { listener.close() }
        let emitter = try fixture.connect()
        let sent = Recorder<Int>()
        let stopped = Recorder<Int>()
        for thread in 0..<3 {
            Thread {
                var index = 0
                while !emitter.isClosed {
                    Self.send("Until", on: emitter, thread: thread, index: index)
                    index += 1
                    if index == 50 { sent.put(thread) }
                }
                stopped.put(thread)
            }.start()
        }
        try await sent.wait(count: 3) { _ in true }
        emitter.close()
        try await stopped.wait(count: 3) { _ in true }
        // Every thread got at least 50 sends out before the close; each arrives in its order.
        let arrived = try await got.wait(count: 150) { _ in true }
        for thread in 0..<3 {
            let indices = arrived.filter { $0.first == thread }.map { $0[1] }
            #expect(indices == Array(0..<indices.count), "thread \(thread)")
        }
    }
}
