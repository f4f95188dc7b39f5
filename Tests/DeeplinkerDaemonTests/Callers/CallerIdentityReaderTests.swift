import DeeplinkerCore
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// `.flatpak-info` parsing and caller lookups on a fake `/proc` tree.
@Suite struct CallerIdentityReaderTests {
    static let stat = "4242 (my (odd) app) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 200"
    static let hostMountinfo = """
        22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
        23 22 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:5 - proc proc rw
        24 22 0:22 / /home/me/My\\040Files rw,relatime - ext4 /dev/sdb1 rw

        """
    static let flatpakMountinfo = """
        75 64 0:39 / / rw,nosuid,nodev,relatime - tmpfs tmpfs rw,uid=1000,gid=1000
        76 75 0:40 /bindfilebDEE4B//deleted /.flatpak-info ro,nosuid,nodev,relatime - tmpfs tmpfs rw

        """
    static let flatpakCgroup = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-com.example.Sand\\x2dboxed-2481.scope\n"
    static let hostCgroup = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.gnome.Terminal-1234.scope\n"

    /// A fake `/proc/4242` with `stat`, `cgroup` and an empty `root/`.
    final class FakeProc: Sendable {
        let directory: TemporaryDirectory
        let pid: UInt32 = 4242
        var process: String { directory.appending("4242") }
        var reader: CallerIdentityReader { CallerIdentityReader(procRoot: directory.path, maximumInfoSize: 1024) }

        init(
            stat: String = CallerIdentityReaderTests.stat, cgroup: String = CallerIdentityReaderTests.hostCgroup,
            mountinfo: String = CallerIdentityReaderTests.hostMountinfo
        ) throws {
            directory = try TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: directory.appending("4242/root"), withIntermediateDirectories: true)
            try stat.write(toFile: directory.appending("4242/stat"), atomically: true, encoding: .utf8)
            try cgroup.write(toFile: directory.appending("4242/cgroup"), atomically: true, encoding: .utf8)
            try mountinfo.write(toFile: directory.appending("4242/mountinfo"), atomically: true, encoding: .utf8)
        }

        func info(_ text: String) throws {
            try text.write(toFile: process + "/root/.flatpak-info", atomically: true, encoding: .utf8)
        }

        func lookup() -> CallerLookup { reader.lookup(pid: pid) }
    }

    @Test func flatpakInfoNamesTheApp() throws {
        let info = try FlatpakInfo(parsing: """
            [Application]
            name=com.example.Sandboxed
            runtime=runtime/org.freedesktop.Platform/x86_64/24.08

            [Instance]
            instance-id=1234
            """)
        #expect(info.appID == "com.example.Sandboxed")
    }

    @Test func flatpakInfoErrorsAreNamedAndLocated() {
        #expect(throws: FlatpakInfoError.malformed(DesktopFileError(line: 2, column: 1, message: "\"garbage\" is not a key=value line, a [group] or a # comment"))) {
            try FlatpakInfo(parsing: "[Application]\ngarbage\n")
        }
        #expect(throws: FlatpakInfoError.noApplicationName) {
            try FlatpakInfo(parsing: "[Instance]\nname=com.example.Wrong\n")
        }
        #expect(throws: FlatpakInfoError.invalidAppID("../../etc")) {
            try FlatpakInfo(parsing: "[Application]\nname=../../etc\n")
        }
        do {
            _ = try FlatpakInfo(parsing: "name=x\n")
            Issue.record("a key outside any group parsed")
        } catch {
            guard case .malformed(let located) = error else { Issue.record("unexpected \(error)"); return }
            #expect(located.line == 1 && located.column == 1)
        }
    }

    @Test func startTimeIsFieldTwentyTwoAfterTheCommand() {
        #expect(CallerIdentityReader.startTime(stat: Self.stat) == "987654")
        #expect(CallerIdentityReader.startTime(stat: "1 (x) S 1 2") == nil)
    }

    @Test func snapIsRecognisedByItsCgroup() {
        #expect(CallerIdentityReader.snapName(cgroup: "0::/user.slice/user@1000.service/app.slice/snap.firefox.firefox-1f2e3d.scope\n") == "firefox")
        #expect(CallerIdentityReader.snapName(cgroup: "12:pids:/user.slice\n1:name=systemd:/user.slice/snap.chromium.chromium.scope") == "chromium")
        #expect(CallerIdentityReader.snapName(cgroup: Self.hostCgroup) == nil)
        #expect(CallerIdentityReader.snapName(cgroup: "0::/snap.scope\n") == nil)
    }

    @Test func mountPointsAreFieldFiveUnescaped() {
        #expect(CallerIdentityReader.mountPoints(mountinfo: Self.hostMountinfo) == ["/", "/proc", "/home/me/My Files"])
        #expect(CallerIdentityReader.mountPoints(mountinfo: Self.flatpakMountinfo).contains("/.flatpak-info"))
    }

    @Test func flatpakScopeNamesTheApp() {
        #expect(CallerIdentityReader.flatpakAppID(cgroup: Self.flatpakCgroup) == "com.example.Sand-boxed")
        #expect(CallerIdentityReader.flatpakAppID(cgroup: "0::/user.slice/app-flatpak-com.example.App-12.scope/sub\n") == "com.example.App")
        #expect(CallerIdentityReader.flatpakAppID(cgroup: "0::/app.slice/app-flatpak-com.example.App-x.scope\n") == nil)
        #expect(CallerIdentityReader.flatpakAppID(cgroup: "0::/app.slice/app-flatpak-notanid-12.scope\n") == nil)
        #expect(CallerIdentityReader.flatpakAppID(cgroup: Self.hostCgroup) == nil)
    }

    /// When `/proc/PID/root` is refused (a daemon in its own user namespace), `mountinfo` and
    /// `cgroup` decide.
    @Test func withoutRootAFlatpakMountAndScopeNameTheApp() throws {
        let proc = try FakeProc(cgroup: Self.flatpakCgroup, mountinfo: Self.flatpakMountinfo)
        #expect(proc.reader.lookup(pid: proc.pid, readingRoot: false) == CallerLookup(.sandboxed(appID: "com.example.Sand-boxed")))
        let noScope = try FakeProc(mountinfo: Self.flatpakMountinfo)
        let lookup = noScope.reader.lookup(pid: noScope.pid, readingRoot: false)
        #expect(lookup.identity == .sandboxed(appID: nil))
        #expect(lookup.reason?.contains("no Flatpak scope") == true)
        // A scope alone (a host process a launcher named so) makes no Flatpak app.
        let hostInScope = try FakeProc(cgroup: Self.flatpakCgroup)
        #expect(hostInScope.reader.lookup(pid: hostInScope.pid, readingRoot: false) == CallerLookup(.host))
        let snap = try FakeProc(cgroup: "0::/user.slice/snap.firefox.firefox-1f2e3d.scope\n")
        #expect(snap.reader.lookup(pid: snap.pid, readingRoot: false) == CallerLookup(.sandboxed(appID: nil)))
        let unreadable = try FakeProc()
        try FileManager.default.removeItem(atPath: unreadable.process + "/mountinfo")
        #expect(unreadable.reader.lookup(pid: unreadable.pid, readingRoot: false).identity == .sandboxed(appID: nil))
    }

    @Test func aProcessWithoutFlatpakInfoOrSnapIsHost() throws {
        #expect(try FakeProc().lookup() == CallerLookup(.host))
    }

    @Test func flatpakInfoMakesItSandboxedWithItsAppID() throws {
        let proc = try FakeProc()
        try proc.info("[Application]\nname=com.example.Sandboxed\n")
        #expect(proc.lookup() == CallerLookup(.sandboxed(appID: "com.example.Sandboxed")))
    }

    @Test func aSnapIsSandboxedWithoutAnAppID() throws {
        let proc = try FakeProc(cgroup: "0::/user.slice/user@1000.service/app.slice/snap.firefox.firefox-1f2e3d.scope\n")
        #expect(proc.lookup() == CallerLookup(.sandboxed(appID: nil)))
    }

    @Test func aGoneProcessIsSandboxedWithAReason() throws {
        let proc = try FakeProc()
        let lookup = proc.reader.lookup(pid: 999_999)
        #expect(lookup == .unknown("process 999999 is gone"))
        #expect(proc.reader.lookup(pid: 0).identity == .sandboxed(appID: nil))
    }

    @Test func aSymlinkedFlatpakInfoIsNotFollowed() throws {
        let proc = try FakeProc()
        let outside = proc.directory.appending("outside-info")
        try "[Application]\nname=com.example.Spoofed\n".write(toFile: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: proc.process + "/root/.flatpak-info", withDestinationPath: outside)
        let lookup = proc.lookup()
        #expect(lookup.identity == .sandboxed(appID: nil))
        #expect(lookup.reason?.contains("symbolic link") == true)
    }

    @Test func aFlatpakInfoThatIsNoRegularFileOrTooLargeIsRefused() throws {
        let fifo = try FakeProc()
        #expect(mkfifo(fifo.process + "/root/.flatpak-info", 0o600) == 0)
        #expect(fifo.lookup().reason?.contains("not a regular file") == true, "a FIFO neither blocks nor passes")
        let directory = try FakeProc()
        try FileManager.default.createDirectory(atPath: directory.process + "/root/.flatpak-info", withIntermediateDirectories: false)
        #expect(directory.lookup().identity == .sandboxed(appID: nil))
        let large = try FakeProc()
        try large.info("[Application]\nname=com.example.Big\n" + String(repeating: "# padding\n", count: 200))
        #expect(large.lookup() == .unknown("process 4242: /proc/4242/root/.flatpak-info is larger than 1024 bytes"))
    }

    @Test func aMalformedFlatpakInfoIsSandboxedWithTheParseError() throws {
        let proc = try FakeProc()
        try proc.info("[Application\nname=com.example.X\n")
        let lookup = proc.lookup()
        #expect(lookup.identity == .sandboxed(appID: nil))
        #expect(lookup.reason?.contains("1:") == true, "\(String(describing: lookup.reason))")
    }

    @Test func anUnreadableRootOrStatIsSandboxedWithAReason() throws {
        let noRoot = try FakeProc()
        try FileManager.default.removeItem(atPath: noRoot.process + "/root")
        #expect(noRoot.lookup() == .unknown("process 4242 is gone"))
        let badStat = try FakeProc(stat: "garbage")
        #expect(badStat.lookup() == .unknown("process 4242: /proc/4242/stat has no start time"))
    }

    /// The real `/proc`: this test process is a host process, a pid that exited is gone.
    @Test func realProcReadsThisProcessAsHostAndAnExitedOneAsGone() async throws {
        #expect(CallerIdentityReader().lookup(pid: UInt32(getpid())) == CallerLookup(.host))
        let child = try TestProcess(executable: "/bin/true", arguments: [], environment: [:])
        let pid = UInt32(child.child.processIdentifier)
        #expect(try await child.waitForExit() == 0)
        let lookup = CallerIdentityReader().lookup(pid: pid)
        #expect(lookup == .unknown("process \(pid) is gone"))
    }
}
