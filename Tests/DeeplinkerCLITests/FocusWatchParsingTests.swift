import DeeplinkerTestSupport
import Foundation
import Testing
@testable import FocusWatch

/// focus-watch's parsing without Foundation's ICU-backed half: sway's IPC JSON through
/// `JSONDecoder`, desktop entries found by walking the directories.
@Suite("focus-watch parsing")
struct FocusWatchParsingTests {
    static let tree = #"""
        {"id":1,"type":"root","focused":false,"nodes":[{"id":2,"type":"output","nodes":[
          {"id":3,"type":"workspace","focused":false,"nodes":[
            {"id":4,"type":"con","focused":false,"pid":10,"app_id":"org.example.Other","nodes":[]}],
           "floating_nodes":[
            {"id":5,"type":"floating_con","focused":true,"pid":4242,"app_id":null,
             "window_properties":{"class":"Firefox","instance":"Navigator","title":"t"},"nodes":[]}]}]}]}
        """#

    @Test("the focused window of a GET_TREE reply, floating ones included; none focused is nil")
    func focusedInTree() throws {
        let window = try SwayFocusSource.focusedWindow(inTree: Array(Self.tree.utf8))
        #expect(window == FocusedWindow(applicationID: nil, pid: 4242, wmClass: ["Navigator", "Firefox"]))
        let unfocused = Self.tree.replacingOccurrences(of: #""focused":true"#, with: #""focused":false"#)
        #expect(try SwayFocusSource.focusedWindow(inTree: Array(unfocused.utf8)) == nil)
        #expect(throws: (any Error).self) { try SwayFocusSource.focusedWindow(inTree: Array("not json".utf8)) }
    }

    @Test("window events: focus names the window, closing the focused one is a loss of focus, the rest are ignored")
    func windowEvents() {
        let focus = #"{"change":"focus","container":{"focused":true,"pid":77,"app_id":"com.bestrecipes.App"}}"#
        #expect(SwayFocusSource.windowChange(Array(focus.utf8)) == .focused(FocusedWindow(applicationID: "com.bestrecipes.App", pid: 77)))
        let closed = #"{"change":"close","container":{"focused":true,"pid":77,"app_id":"com.bestrecipes.App"}}"#
        #expect(SwayFocusSource.windowChange(Array(closed.utf8)) == .closed)
        let otherClosed = #"{"change":"close","container":{"focused":false,"pid":78}}"#
        #expect(SwayFocusSource.windowChange(Array(otherClosed.utf8)) == nil)
        #expect(SwayFocusSource.windowChange(Array(#"{"change":"title","container":{"pid":1}}"#.utf8)) == nil)
        #expect(SwayFocusSource.windowChange(Array("[]".utf8)) == nil)
    }

    @Test("desktop entries under a directory, sub-directories joined with '-', links to directories not followed")
    func desktopEntries() async throws {
        try await TemporaryDirectory.with(prefix: "deeplinker-focus") { directory in
            let root = directory.path
            try FileManager.default.createDirectory(atPath: root + "/kde/sub", withIntermediateDirectories: true)
            for file in ["a.desktop", "kde/b.desktop", "kde/sub/c.desktop", "notes.txt"] {
                try "[Desktop Entry]\n".write(toFile: root + "/" + file, atomically: true, encoding: .utf8)
            }
            try FileManager.default.createSymbolicLink(atPath: root + "/loop", withDestinationPath: root)
            let entries = WMClassIndex.entries(in: root)
            #expect(entries.map(\.0) == ["a", "kde-b", "kde-sub-c"])
            #expect(entries.map(\.1) == [root + "/a.desktop", root + "/kde/b.desktop", root + "/kde/sub/c.desktop"])
            #expect(WMClassIndex.entries(in: root + "/missing").isEmpty)
        }
    }
}
