import DeeplinkerCore
import Foundation
import Testing

/// Invocation ids are lowercase version 7 UUIDs that Foundation parses back, ordered by time.
struct InvocationIDTests {
    @Test func isALowercaseVersion7UUIDCarryingItsTime() throws {
        let milliseconds: Int64 = 1_795_442_955_984
        for _ in 0..<1_000 {
            let id = InvocationID.make(unixMilliseconds: milliseconds)
            let uuid = try #require(UUID(uuidString: id))
            #expect(uuid.uuidString.lowercased() == id)
            let bytes = Array(id.utf8)
            #expect(bytes[14] == UInt8(ascii: "7"))
            #expect([UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(bytes[19]))
            let hex = id.replacingOccurrences(of: "-", with: "").prefix(12)
            #expect(Int64(hex, radix: 16) == milliseconds)
        }
    }

    @Test func laterIdsSortLater() {
        var previous = ""
        for milliseconds in stride(from: Int64(1_700_000_000_000), to: 1_700_000_100_000, by: 997) {
            let id = InvocationID.make(unixMilliseconds: milliseconds)
            #expect(id > previous)
            previous = id
        }
    }

    @Test func idsDiffer() {
        let ids = Set((0..<10_000).map { _ in InvocationID.make(unixMilliseconds: 1_700_000_000_000) })
        #expect(ids.count == 10_000)
    }
}
