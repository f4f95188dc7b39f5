import DeeplinkerRouteFiles
import DeeplinkerTestSupport
import Foundation
import Testing

/// `TextFile`, the reader of route files and desktop entries: the size limit is applied before
/// reading, and every refusal says why.
@Suite struct TextFileTests {
    @Test func readsUTF8Text() throws {
        try TemporaryDirectory.with { directory in
            let path = directory.appending("a.toml")
            try "é = 1\n".write(toFile: path, atomically: true, encoding: .utf8)
            #expect(TextFile.text(atPath: path, limit: 100) == .success("é = 1\n"))
        }
    }

    @Test func refusesWhatIsLargerThanTheLimit() throws {
        try TemporaryDirectory.with { directory in
            let path = directory.appending("big.toml")
            try String(repeating: "x", count: 101).write(toFile: path, atomically: true, encoding: .utf8)
            #expect(TextFile.text(atPath: path, limit: 100) == .failure(.tooLarge(limit: 100)))
            #expect(TextFile.text(atPath: path, limit: 101).map(\.count) == .success(101))
        }
    }

    @Test func refusesInvalidUTF8ButTheLenientFormRepairsIt() throws {
        try TemporaryDirectory.with { directory in
            let path = directory.appending("bad.desktop")
            try Data([0x61, 0xFF, 0x62]).write(to: URL(fileURLWithPath: path))
            #expect(TextFile.text(atPath: path, limit: 100) == .failure(.notUTF8))
            #expect(TextFile.lenientText(atPath: path) == "a\u{FFFD}b")
        }
    }

    @Test func namesTheReasonForMissingFilesAndDirectories() throws {
        try TemporaryDirectory.with { directory in
            let missing = TextFile.text(atPath: directory.appending("none.toml"), limit: 100)
            #expect(missing == .failure(.unreadable(errno: ENOENT)))
            if case .failure(let failure) = missing { #expect(failure.reason == "No such file or directory") }
            #expect(TextFile.text(atPath: directory.path, limit: 100) == .failure(.notARegularFile))
            #expect(TextFile.lenientText(atPath: directory.appending("none.desktop")) == nil)
        }
    }

    /// Files whose size `stat` does not know (/proc) are read to the end.
    @Test func readsToTheEndWhateverTheReportedSize() {
        let text = TextFile.lenientText(atPath: "/proc/self/status")
        #expect(text?.contains("Pid:") == true)
    }
}
