@testable import DBusKit
import Testing

/// The wire encoder that builds signals and replies in one pass: the same messages as libdbus's
/// iterators build, and a fall back to them (with their errors) for anything malformed.
@Suite struct WireEncoderTests {
    @Test("every sample value encodes to bytes libdbus accepts, and decodes to the same value", arguments: MarshallingTests.samples)
    func encodesEverySample(value: DBusValue) throws {
        let bytes = WireEncoder.message(.signal, fields: [.objectPath(1, "/a/b"), .string(2, "org.example.I"), .string(3, "Changed")], body: [value, .string("after")])
        let message = try #require(DBusMessage.demarshal(bytes))
        #expect(try message.arguments() == [value, .string("after")])
        #expect(message.bodySignature == value.signature + "s")
    }

    @Test("a signal from the encoder has the header and body libdbus would give it", arguments: MarshallingTests.samples)
    func signalMatchesLibdbus(value: DBusValue) throws {
        let arguments: [DBusValue] = [.string("com.example.App"), value, .string("")]
        let fast = try DBusMessage.signal(path: "/org/example/Obj", interface: "org.example.I", member: "Changed", arguments: arguments, destination: ":1.42")
        let slow = try DBusMessage.libdbusSignal(path: "/org/example/Obj", interface: "org.example.I", member: "Changed", arguments: arguments, destination: ":1.42")
        #expect(fast.type == .signal)
        try Self.expectSame(fast, slow)
    }

    /// The header fields, flags and body of `fast` are `slow`'s; `fast` is not numbered yet.
    static func expectSame(_ fast: DBusMessage, _ slow: DBusMessage) throws {
        #expect(fast.type == slow.type)
        #expect(fast.path == slow.path)
        #expect(fast.interface == slow.interface)
        #expect(fast.member == slow.member)
        #expect(fast.destination == slow.destination)
        #expect(fast.bodySignature == slow.bodySignature)
        #expect(fast.expectsReply == slow.expectsReply)
        #expect(fast.autoStarts == slow.autoStarts)
        #expect(fast.serial == 0)
        #expect(try fast.arguments() == slow.arguments())
    }

    @Test("a method call from the encoder has the header, flags and body libdbus would give it", arguments: MarshallingTests.samples)
    func methodCallMatchesLibdbus(value: DBusValue) throws {
        let arguments: [DBusValue] = [.string("recipe"), value, .variantDictionary(["k": .string("v")])]
        for (interface, noAutoStart) in [("org.example.I", true), (nil, false)] as [(String?, Bool)] {
            let fast = try DBusMessage.methodCall(
                destination: ":1.42", path: "/org/example/Obj", interface: interface, member: "Act", arguments: arguments, noAutoStart: noAutoStart)
            let slow = try DBusMessage.libdbusMethodCall(
                destination: ":1.42", path: "/org/example/Obj", interface: interface, member: "Act", arguments: arguments, noAutoStart: noAutoStart)
            #expect(fast.type == .methodCall)
            #expect(fast.expectsReply)
            #expect(fast.autoStarts == !noAutoStart)
            try Self.expectSame(fast, slow)
        }
    }

    @Test("a signal with no arguments has no signature field")
    func emptySignal() throws {
        let message = try #require(DBusMessage.demarshal(WireEncoder.message(.signal, fields: [.objectPath(1, "/"), .string(2, "a.b"), .string(3, "M")], body: [])))
        #expect(message.bodySignature == "")
        #expect(try message.arguments() == [])
    }

    @Test("malformed values still fail with libdbus's errors (the encoder falls back)")
    func malformedFallsBack() {
        let bad: [DBusValue] = [
            .string("nul\0inside"),
            .objectPath("not/a/path"),
            .signature("a{vs}"),
            .array(elementSignature: "s", [.int32(1)]),
            .dictionary(keySignature: "s", valueSignature: "s", [DBusDictEntry(key: .string("k"), value: .int32(1))]),
            .structure([]),
            .variant(.signature(String(repeating: "i", count: 300))),
        ]
        for value in bad {
            #expect(throws: DBusError.self, "\(value)") {
                _ = try DBusMessage.signal(path: "/", interface: "a.b", member: "M", arguments: [value])
            }
            #expect(throws: DBusError.self, "\(value)") {
                _ = try DBusMessage.methodCall(destination: "a.b", path: "/", interface: "a.b", member: "M", arguments: [value])
            }
        }
    }
}
