@testable import DBusKit
import DeeplinkerTestSupport
import Foundation
import Testing

/// Messages sent from threads other than the connection's loop: queued for the loop (the only
/// thread that writes the socket), in each thread's order, and never written once closed.
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
        // The bus says the emitter left after it has passed on everything it read from it.
        let left = Recorder<String>()
        try await listener.subscribe(
            MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arg0: emitter.uniqueName)
        ) { _, _ in left.put("left") }
        let threads = 3
        /// Per thread, how many of its sends had returned (index + 1).
        let returned = Locked([Int](repeating: 0, count: threads))
        let sent = Recorder<Int>()
        let stopped = Recorder<Int>()
        for thread in 0..<threads {
            Thread {
                var index = 0
                while !emitter.isClosed {
                    Self.send("Until", on: emitter, thread: thread, index: index)
                    index += 1
                    returned.mutate { $0[thread] = index }
                    if index == 50 { sent.put(thread) }
                }
                stopped.put(thread)
            }.start()
        }
        try await sent.wait(count: threads) { _ in true }
        let beforeClose = returned.value
        emitter.close()
        // Sent after close() returned: never written.
        for index in 0..<10 { Self.send("Until", on: emitter, thread: 99, index: index) }
        try await stopped.wait(count: threads) { _ in true }
        _ = try await left.next()
        let arrived = got.all
        #expect(!arrived.contains { $0.first == 99 }, "nothing is written after close()")
        for thread in 0..<threads {
            let indices = arrived.filter { $0.first == thread }.map { $0[1] }
            #expect(indices == Array(0..<indices.count), "thread \(thread) in its order")
            #expect(indices.count >= beforeClose[thread], "thread \(thread): every send that returned before close() arrived")
        }
    }
}
