import DBusKit
import DeeplinkerDaemon
import Foundation

/// Structure-aware decoding: the first byte picks a method of `org.deeplinker.Deeplinker1`
/// (or, past the list, an unknown one), the rest become arguments of its signature, now and then
/// an ill-typed or missing one. Strings are either raw bytes or a pick from ``tokens`` (apps, URLs,
/// payloads the example route files accept), so inputs reach routing, not only the checks.
struct SurfaceCallDecoder {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = ArraySlice(bytes)
    }

    /// Strings the route files in `Config/apps` and the API know, picked by a byte below their count.
    static let tokens: [String] = [
        "com.bestrecipes.App", "com.example.Apartments", "", "com.nope.App",
        "bestrecipes://recipe/12", "https://bestrecipes.com/recipe/12?ref=mail", "bestrecipes://search?q=soup",
        "deeplinkTutorial://request/r-1", "https://apartments.example.com/listing/7", "bestrecipes://home",
        #"{"type":"recipe","id":12}"#, #"{"link":"https://bestrecipes.com/recipe/12"}"#, #"{"kind":"chat","conversation":"c1"}"#,
        #"{"url":"bestrecipes://recipe/3"}"#, #"{"shortcut-item":"com.bestrecipes.favorites"}"#,
        #"{"remote-notification":{"type":"recipe","id":5}}"#, #"{"user-activity":{"webpage-url":"https://bestrecipes.com/recipe/9"}}"#,
        "url", "notification", "shortcut", "activity", "launch", "active", "inactive", "background", "not-running",
        "default", "reply", "com.bestrecipes.favorites", "com.bestrecipes.search", "browsing-web", "NSUserActivityTypeBrowsingWeb",
        "activation-token", "desktop-startup-id", "action", "activity-type",
    ]

    mutating func methodCall(destination: String) -> DBusMessage? {
        let methods = DeeplinkerAPI.methods
        let pick = Int(next() ?? 0)
        let name = pick < methods.count * 3 ? methods[pick % methods.count].name : "Unknown\(pick)"
        let signature = methods.first { $0.name == name }?.inputs.map(\.signature) ?? ["s"]
        var arguments: [DBusValue] = []
        for code in signature {
            guard let selector = next() else { break }
            // One argument in 32 gets a wrong type; the binding must refuse it by name.
            arguments.append(selector & 0x1F == 0x1F ? value(for: "u") : value(for: code))
        }
        return try? DBusMessage.methodCall(
            destination: destination, path: DeeplinkerAPI.objectPath, interface: DeeplinkerAPI.interface,
            member: name, arguments: arguments)
    }

    private mutating func value(for signature: String) -> DBusValue {
        switch signature {
        case "s": .string(string())
        case "u": .uint32(UInt32(next() ?? 0) << 24 | UInt32(next() ?? 0))
        case "as": .strings((0..<Int((next() ?? 0) % 12)).map { _ in string() })
        case "a{sv}":
            .variantDictionary(Dictionary((0..<Int((next() ?? 0) % 6)).map { _ in (string(), variant(depth: 0)) }) { a, _ in a })
        default: .string(string())
        }
    }

    private mutating func variant(depth: Int) -> DBusValue {
        switch (next() ?? 0) % 7 {
        case 0: .string(string())
        case 1: .uint32(UInt32(next() ?? 0))
        case 2: .int64(-Int64(next() ?? 0))
        case 3: .boolean((next() ?? 0) & 1 == 1)
        case 4: .strings([string(), string()])
        case 5 where depth < 70: .variant(variant(depth: depth + 1))
        default: .double(Double(next() ?? 0) / 3)
        }
    }

    /// A token (selector below the token count), a huge string (255), or raw bytes of a given length.
    private mutating func string() -> String {
        let selector = Int(next() ?? 0)
        if selector < Self.tokens.count { return Self.tokens[selector] }
        if selector == 255 { return String(repeating: "x", count: 64 * 1024 + Int(next() ?? 0)) }
        let length = Int(next() ?? 0)
        var raw: [UInt8] = []
        while raw.count < length, let byte = next() { raw.append(byte == 0 ? 0x20 : byte) }
        return String(decoding: raw, as: UTF8.self)
    }

    private mutating func next() -> UInt8? {
        bytes.popFirst()
    }
}
