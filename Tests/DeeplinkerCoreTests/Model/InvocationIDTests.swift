import DeeplinkerCore
import Foundation
import Testing

/// Invocation ids are lowercase version 4 UUIDs that Foundation parses back.
struct InvocationIDTests {
    @Test func isALowercaseVersion4UUID() throws {
        for _ in 0..<1_000 {
            let id = InvocationID.make()
            let uuid = try #require(UUID(uuidString: id))
            #expect(uuid.uuidString.lowercased() == id)
            let bytes = Array(id.utf8)
            #expect(bytes[14] == UInt8(ascii: "4"))
            #expect([UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(bytes[19]))
        }
    }

    @Test func idsDiffer() {
        let ids = Set((0..<10_000).map { _ in InvocationID.make() })
        #expect(ids.count == 10_000)
    }
}
