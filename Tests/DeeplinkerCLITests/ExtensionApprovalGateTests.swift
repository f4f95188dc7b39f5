import DeeplinkerTestSupport
import Foundation
import Testing

/// The extension's background script (SPEC §10 "Approved by the user"): only its own popup page may
/// approve or revoke. `Tests/Browser/background-gate.js` runs the shipped `background.js` under
/// node with stand-ins for the extension APIs and reports which senders' `approve` reached the
/// native host port. (Headless Chromium shows the same from a real page in `BrowserEndToEndTests`;
/// there a page cannot even reach the script, so this is where a content script's message is tried.)
@Suite struct ExtensionApprovalGateTests {
    @Test func onlyThePopupsApprovalReachesTheHost() async throws {
        let result = try await TestProcess.run(
            "/usr/bin/node",
            [TestFiles.repository("Tests/Browser/background-gate.js"), TestFiles.repository("Browser/extension/background.js")])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try DaemonFixture.json(result.stdout)
        let results = object["results"] as? [[String: Any]] ?? []
        let reached = results.filter { !($0["sent"] as? [Any] ?? []).isEmpty }.compactMap { $0["case"] as? String }
        #expect(reached == ["popup", "popup as a page"])
        let refused = results.filter { ($0["reply"] as? [String: Any])?["error"] as? String == "not-allowed" }.compactMap { $0["case"] as? String }
        #expect(refused == ["content script", "content script on a page named like the popup", "another extension page"])
        #expect(results.count == 6)
    }
}
