import DBusKit
import Testing

/// Every supported type, empty containers, unicode and nesting, through a real bus and back.
@Suite struct MarshallingTests {
    static let samples: [DBusValue] = [
        .byte(0), .byte(255), .boolean(true), .boolean(false),
        .int16(.min), .uint16(.max), .int32(-42), .uint32(.max), .int64(.min), .uint64(.max),
        .double(3.25), .double(-0.0),
        .string(""), .string("héllo wörld ✓ 日本語 👩‍👩‍👧"), .objectPath("/org/example/Obj_1"), .signature("a{sv}(ii)"),
        .strings([]), .strings(["a", "ü", ""]),
        .stringDictionary([:]), .stringDictionary(["k": "v", "ключ": "значение"]),
        .variantDictionary([:]), .variantDictionary(["s": .string("x"), "n": .int32(1), "nested": .variantDictionary(["b": .boolean(true)])]),
        .array(elementSignature: "v", []), .array(elementSignature: "v", [.variant(.stringDictionary(["id": "1"]))]),
        .array(elementSignature: "(sssssx)", []),
        .array(elementSignature: "(sssssx)", [
            .structure([.string("id"), .string("app"), .string("url"), .string("home"), .string("delivered"), .int64(1_700_000_000_000_000)])
        ]),
        .structure([.int32(1), .structure([.string("inner"), .array(elementSignature: "ay", [.array(elementSignature: "y", [.byte(1)])])])]),
        .variant(.variant(.variant(.string("deep")))),
        .dictionary(keySignature: "u", valueSignature: "as", [DBusDictEntry(key: .uint32(7), value: .strings(["x"]))]),
    ]

    @Test("values survive a message round trip without a bus", arguments: samples)
    func localRoundTrip(value: DBusValue) throws {
        let message = try DBusMessage.methodCall(destination: "org.example.X", path: "/", interface: "org.example.X", member: "M")
        try message.append([value, .string("after")])
        #expect(try message.arguments() == [value, .string("after")])
        #expect(message.bodySignature == value.signature + "s")
    }

    @Test("values survive a call through dbus-daemon, wrapped in a variant and bare")
    func busRoundTrip() async throws {
        let fixture = try BusFixture()
        let echo = DBusObject(path: "/org/example/Echo", interfaces: [
            DBusInterface("org.example.Echo", methods: [
                DBusMethod("Echo", in: [DBusArgument("value", "v")], out: [DBusArgument("value", "v")]) { call in
                    call.reply(call.arguments)
                },
                DBusMethod("History", in: [DBusArgument("rows", "a(sssssx)"), DBusArgument("data", "a{sv}"), DBusArgument("params", "av")],
                           out: [DBusArgument("rows", "a(sssssx)"), DBusArgument("data", "a{sv}"), DBusArgument("params", "av")]) { call in
                    call.reply(call.arguments)
                },
            ])
        ])
        let server = try await fixture.serve(echo, name: "org.example.Echo")
        defer { server.close() }
        let client = try fixture.connect()
        defer { client.close() }
        for value in Self.samples {
            let reply = try await client.call(
                destination: "org.example.Echo", path: "/org/example/Echo", interface: "org.example.Echo",
                member: "Echo", arguments: [.variant(value)])
            #expect(reply == [.variant(value)])
        }
        let rows = DBusValue.array(elementSignature: "(sssssx)", [
            .structure([.string("1"), .string("a"), .string("url"), .string("t"), .string("pending"), .int64(5)]),
            .structure([.string("2"), .string("b"), .string("shortcut"), .string("u"), .string("delivered"), .int64(-1)]),
        ])
        let arguments: [DBusValue] = [rows, .variantDictionary(["activation-token": .string("tok")]), .array(elementSignature: "v", [])]
        let reply = try await client.call(
            destination: "org.example.Echo", path: "/org/example/Echo", interface: "org.example.Echo",
            member: "History", arguments: arguments)
        #expect(reply == arguments)
    }

    @Test("nesting up to the limit is accepted, deeper is refused with InvalidArgs")
    func deepNesting() throws {
        var value = DBusValue.string("core")
        for _ in 0..<DBusMessage.maximumNesting { value = .variant(value) }
        let ok = try DBusMessage.methodCall(destination: nil, path: "/", interface: nil, member: "M")
        try ok.append([value])
        #expect(try ok.arguments() == [value])

        let tooDeep = DBusValue.variant(value)
        let refused = try DBusMessage.methodCall(destination: nil, path: "/", interface: nil, member: "M")
        #expect(throws: DBusError.self) { try refused.append([tooDeep]) }
    }

    @Test("malformed values are refused with an error, never a crash")
    func malformedValues() throws {
        let message = try DBusMessage.methodCall(destination: nil, path: "/", interface: nil, member: "M")
        let bad: [DBusValue] = [
            .string("nul\0inside"),
            .objectPath("not/a/path"),
            .objectPath("/trailing/"),
            .signature("a{vs}"),
            .array(elementSignature: "s", [.int32(1)]),
            .array(elementSignature: "ss", []),
            .dictionary(keySignature: "v", valueSignature: "s", []),
            .dictionary(keySignature: "s", valueSignature: "s", [DBusDictEntry(key: .string("k"), value: .int32(1))]),
            .structure([]),
        ]
        for value in bad {
            #expect(throws: DBusError.self, "\(value)") { try message.append([value]) }
        }
        #expect(throws: DBusError.self) { _ = try DBusMessage.methodCall(destination: nil, path: "bad", interface: nil, member: "M") }
        #expect(throws: DBusError.self) { _ = try DBusMessage.methodCall(destination: "", path: "/", interface: "no", member: "M") }
        #expect(throws: DBusError.self) { _ = try DBusMessage.signal(path: "/", interface: "a.b", member: "bad member") }
    }
}
