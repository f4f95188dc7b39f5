import DeeplinkerCore
import DeeplinkerTestSupport
import Testing

/// Property tests: any text that parses renders back byte for byte, and edits of one key leave
/// every other line as it was.
struct DesktopFileRoundTripTests {
    static let pieces = [
        "[Desktop Entry]", "[Desktop Action a]", "[X-Other]", "  [Spaced] \t", "# comment", "   # indented", "", " ", "\t",
        "Name=x", "Name[fr]=é\\s\\n", "Key = spaced value  ", "Exec=\"/a b/c\" %u", "K=v\r", "Empty=", "Semi=a\\;b;c;",
        "Ünïcode=☃", "\r", "[Desktop Entry]\r", "junk", "=x", "[bad",
    ]

    static func randomText(_ rng: inout SplitMix) -> String {
        let count = Int.random(in: 0...12, using: &rng)
        let lines = (0..<count).map { _ in pieces.randomElement(using: &rng)! }
        return lines.joined(separator: "\n") + (Bool.random(using: &rng) ? "\n" : "")
    }

    @Test func everyParsableTextRoundTrips() {
        var rng = SplitMix(seed: 13)
        var parsed = 0
        for _ in 0..<5_000 {
            let text = Self.randomText(&rng)
            guard let file = try? DesktopFile(parsing: text) else { continue }
            parsed += 1
            #expect(file.rendered() == text, "\(text.debugDescription)")
            #expect((try? DesktopFile(parsing: file.rendered())) == file)
        }
        #expect(parsed > 500)
    }

    /// The lines of `text`, split on the byte ("\r\n" is one Character), without the final newline.
    static func lines(_ text: String) -> [String] {
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if text.utf8.last == UInt8(ascii: "\n") { lines.removeLast() }
        return lines
    }

    @Test func editingOneKeyLeavesEveryOtherLine() throws {
        var rng = SplitMix(seed: 8)
        for _ in 0..<2_000 {
            let text = Self.randomText(&rng)
            guard var file = try? DesktopFile(parsing: text), file.groups.contains("Desktop Entry") else { continue }
            let before = Self.lines(file.rendered())
            file.setValue("changed", for: "Name")
            let after = Self.lines(file.rendered())
            // Only Name lines of the main group change, and at most one line is added.
            let removedLines = before.filter { !after.contains($0) }
            #expect(removedLines.allSatisfy { $0.hasPrefix("Name=") }, "\(text.debugDescription) removed \(removedLines)")
            #expect(after.count <= before.count + 1)
            #expect(file.value("Name") == "changed")
            let reparsed = try DesktopFile(parsing: file.rendered())
            #expect(reparsed.value("Name") == "changed")
            #expect(reparsed.groups == file.groups)
        }
    }
}
