@testable import DeeplinkerDaemon
import Testing

/// The scope a launched app is moved into: its name as `systemd-escape` writes the app id.
@Suite struct TransientScopeTests {
    @Test("the app id is escaped as systemd-escape does: '-' and a leading '.' become \\xNN")
    func escape() {
        #expect(TransientScope.escape("com.example.my-app") == "com.example.my\\x2dapp")
        #expect(TransientScope.escape(".a b/c") == "\\x2ea\\x20b\\x2fc")
        #expect(TransientScope.escape("Ab:9_z.") == "Ab:9_z.")
    }

    @Test("the unit name ends in 16 lowercase hex digits and .scope")
    func unitName() {
        let name = TransientScope.unitName(appID: "com.example.App")
        #expect(name.hasPrefix("app-deeplinker-com.example.App-") && name.hasSuffix(".scope"))
        let random = name.dropFirst("app-deeplinker-com.example.App-".count).dropLast(".scope".count)
        #expect(random.count == 16 && random.allSatisfy { "0123456789abcdef".contains($0) }, "\(name)")
    }
}
