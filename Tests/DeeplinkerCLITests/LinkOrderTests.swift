import DeeplinkerTestSupport
import Foundation
import Testing

/// `scripts/link-order`, which finds the functions the installed `deeplinkerd` runs so that
/// `scripts/static-build` can link them together: the tracer on a real program, the linker script
/// `record` writes from the calls and an lld map, and lld linking with it.
@Suite("scripts/link-order")
struct LinkOrderTests {
    static let firstCalls = TestFiles.repository("scripts/link-order/first-calls.c")
    static let record = TestFiles.repository("scripts/link-order/record")
    static let check = TestFiles.repository("scripts/link-order/check")

    /// Calls `twice` twice from main and `inThread` from a second thread; never calls `never`.
    static let program = """
        #include <pthread.h>
        #include <stdio.h>
        __attribute__((noinline)) int twice(int x) { return x + 1; }
        __attribute__((noinline)) int never(int x) { return x * 3; }
        __attribute__((noinline)) void *inThread(void *arg) { *(int *)arg = twice(40); return 0; }
        int main(void) {
          int a = twice(1), b = twice(a), c = 0;
          pthread_t thread;
          pthread_create(&thread, 0, inThread, &c);
          pthread_join(thread, 0);
          printf("%d %d %d\\n", a, b, c);
          return 7;
        }
        """

    @Test func theTracerNotesEachFunctionOnceInCallOrderAcrossThreadsAndLetsTheProgramRun() async throws {
        try await TemporaryDirectory.with(prefix: "deeplinker-link-order") { directory in
            let tracer = directory.appending("first-calls")
            let built = try await TestProcess.run("/usr/bin/env", ["cc", "-O2", "-o", tracer, Self.firstCalls])
            try #require(built.status == 0, "cc: \(built.output)")
            let source = directory.appending("program.c")
            try Self.program.write(toFile: source, atomically: true, encoding: .utf8)
            let program = directory.appending("program")
            let compiled = try await TestProcess.run("/usr/bin/env", ["cc", "-O1", "-no-pie", "-pthread", source, "-o", program])
            try #require(compiled.status == 0, "cc: \(compiled.output)")

            // Every function of the program's own symbol table, by address.
            let symbols = try await TestProcess.run("/usr/bin/readelf", ["-sW", "--syms", program]).stdout
            var byName: [String: String] = [:]
            for line in symbols.split(separator: "\n") {
                let fields = line.split(whereSeparator: \.isWhitespace).map(String.init)
                guard fields.count >= 8, fields[3] == "FUNC", fields[6] != "UND", fields[2] != "0" else { continue }
                byName[fields[7]] = String(fields[1].drop { $0 == "0" })
            }
            let names = ["main", "twice", "never", "inThread"]
            for name in names { try #require(byName[name] != nil, "\(name) is not in \(symbols)") }
            let functions = directory.appending("functions")
            try Set(byName.values).joined(separator: "\n").write(toFile: functions, atomically: true, encoding: .utf8)

            let out = directory.appending("calls")
            let ran = try await TestProcess.run(tracer, [functions, out, program])
            #expect(ran.status == 7, "\(ran.output)")
            #expect(ran.stdout == "2 3 41\n")
            let calls = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init)
            let named = Dictionary(uniqueKeysWithValues: names.map { (byName[$0]!, $0) })
            let ours = calls.compactMap { named[$0] }
            #expect(ours == ["main", "twice", "inThread"])
            #expect(Set(calls).count == calls.count)
        }
    }

    /// A map in lld's format: `Swift.o` holds a whole module in `.text`; `Row.swift.o` a section per
    /// function, one of them a private helper with no symbol; `.rodata`'s input is not code; and
    /// `.text.ordered` holds what an earlier order put first (a binary linked with it is recorded).
    static let map = """
                     VMA              LMA     Size Align Out     In      Symbol
                  400800           400800      100    16 .text.ordered
                  400800           400800      100    16         /work/x/.build-static/release/GRDB.build/Row.swift.o:(.text.$s4GRDB3RowC3hotSivg)
                  400800           400800      100     1                 $s4GRDB3RowC3hotSivg
                  401000           401000     4000    16 .text
                  401000           401000     2000    16         /opt/swift/lib/libswiftCore.a(Swift.o):(.text)
                  401000           401000      100     1                 $sSS5countSivg
                  403000           403000      100    16         /work/x/.build-static/release/GRDB.build/Row.swift.o:(.text.$s4GRDB3RowC5countSivg)
                  403000           403000      100     1                 $s4GRDB3RowC5countSivg
                  403100           403100       40    16         /work/x/.build-static/release/GRDB.build/Row.swift.o:(.text..Lobjectdestroy.12)
                  403200           403200      100    16         /work/x/.build-static/release/Deque.build/Deque+Partial Equatable.swift.o:(.text.$s4load)
                  403200           403200      100     1                 $s4load
                  403300           403300      100    16         /work/x/.build-static/release/GRDB.build/Row.swift.o:(.text.$s4cold)
                  405000           405000      100    16 .rodata
                  405000           405000      100    16         /work/x/data.o:(.text)
        """

    @Test func recordListsTheSectionsThatRanFunctionsFirstAndWholeModulesLast() async throws {
        try await TemporaryDirectory.with(prefix: "deeplinker-link-order") { directory in
            let mapFile = directory.appending("deeplinkerd.map")
            try Self.map.write(toFile: mapFile, atomically: true, encoding: .utf8)
            // First calls: Swift.o's String.count, Row.count, the private helper (inside its
            // section, as a return lands), Row.count again, then load, then Row.hot (already in
            // .text.ordered); cold never runs.
            let script = """
                import importlib.machinery, importlib.util, sys
                loader = importlib.machinery.SourceFileLoader("record", sys.argv[1])
                record = importlib.util.module_from_spec(importlib.util.spec_from_loader("record", loader))
                loader.exec_module(record)
                sections = record.text_sections(open(sys.argv[2]).read())
                print(len(sections))
                print(record.script([0x401000, 0x403000, 0x403110, 0x403000, 0x403200, 0x400880], sections))
                """
            let ran = try await TestProcess.run("/usr/bin/python3", ["-c", script, Self.record, mapFile])
            try #require(ran.status == 0, "\(ran.output)")
            let lines = ran.stdout.split(separator: "\n").map(String.init)
            // The five input sections of .text and the one of .text.ordered; .rodata's is not code.
            #expect(lines.first == "6")
            let entries = lines.filter { $0.hasPrefix("    ") }.map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(entries == [
                #"*/GRDB.build/Row.swift.o(".text.$s4GRDB3RowC5countSivg")"#,
                #"*/GRDB.build/Row.swift.o(".text..Lobjectdestroy.12")"#,
                #"*/Deque.build/Deque+Partial?Equatable.swift.o(".text.$s4load")"#,
                #"*/GRDB.build/Row.swift.o(".text.$s4GRDB3RowC3hotSivg")"#,
                #"*/libswiftCore.a:Swift.o(".text")"#,
            ])
            #expect(ran.stdout.contains("INSERT BEFORE .text;"))
        }
    }

    /// Two functions of its own sections and a library object without function sections.
    static let sources = [
        "main.c": """
            int cold1(int x) { return x * 7; }
            int hot1(int x) { return x + 1; }
            int lib2(int);
            int main(int argc, char **argv) { (void)argv; return hot1(argc) + lib2(argc) == 42 ? cold1(argc) : 0; }
            """,
        "lib.c": """
            int lib1(int x) { return x - 1; }
            int lib2(int x) { return x * 2; }
            """,
    ]

    @Test func lldLinksTheSectionsTheScriptNamesFirstInItsOrder() async throws {
        try await TemporaryDirectory.with(prefix: "deeplinker-link-order") { directory in
            for (name, text) in Self.sources { try text.write(toFile: directory.appending(name), atomically: true, encoding: .utf8) }
            let cc = { (arguments: [String]) async throws in
                let ran = try await TestProcess.run("/usr/bin/env", ["cc"] + arguments)
                try #require(ran.status == 0, "cc \(arguments): \(ran.output)")
            }
            try await cc(["-O1", "-ffunction-sections", "-c", directory.appending("main.c"), "-o", directory.appending("main.o")])
            try await cc(["-O1", "-c", directory.appending("lib.c"), "-o", directory.appending("lib.o")])
            let archived = try await TestProcess.run("/usr/bin/ar", ["rcs", directory.appending("libx.a"), directory.appending("lib.o")])
            try #require(archived.status == 0, "\(archived.output)")
            let objects = [directory.appending("main.o"), "-L" + directory.path, "-lx", "-no-pie", "-fuse-ld=lld"]
            let first = directory.appending("first")
            try await cc(objects + ["-Wl,-Map=" + directory.appending("map"), "-o", first])

            // Pretend main, then hot1, then lib2 ran: the script from the map, then a link with it.
            let script = """
                import importlib.machinery, importlib.util, subprocess, sys
                loader = importlib.machinery.SourceFileLoader("record", sys.argv[1])
                record = importlib.util.module_from_spec(importlib.util.spec_from_loader("record", loader))
                loader.exec_module(record)
                sections = record.text_sections(open(sys.argv[2]).read())
                lines = subprocess.run(["nm", sys.argv[3]], capture_output=True, text=True).stdout.splitlines()
                address = {p[2]: int(p[0], 16) for p in (line.split() for line in lines) if len(p) == 3}
                print(record.script([address["main"], address["hot1"], address["lib2"]], sections))
                """
            let written = try await TestProcess.run("/usr/bin/python3", ["-c", script, Self.record, directory.appending("map"), first])
            try #require(written.status == 0, "\(written.output)")
            try written.stdout.write(toFile: directory.appending("order.ld"), atomically: true, encoding: .utf8)
            let second = directory.appending("second")
            try await cc(objects + ["-Wl,--script=" + directory.appending("order.ld"), "-o", second])

            let listed = try await TestProcess.run("/usr/bin/nm", ["-n", second]).stdout
            let order = listed.split(separator: "\n").compactMap { line -> String? in
                let name = String(line.split(separator: " ").last ?? "")
                return ["main", "hot1", "lib1", "lib2", "cold1"].contains(name) ? name : nil
            }
            // main and hot1 in call order, then the library object whole (lib1 moves with lib2).
            #expect(order == ["main", "hot1", "lib1", "lib2", "cold1"])
            let sections = try await TestProcess.run("/usr/bin/readelf", ["-SW", second]).stdout
            #expect(sections.contains(".text.ordered"))
            let ran = try await TestProcess.run(second, ["a", "b"])
            #expect(ran.status == 0)
        }
    }

    /// An order as `record` writes it, naming `functions` of main.o.
    static func order(naming functions: [String]) -> String {
        "SECTIONS {\n  .text.ordered : {\n" + functions.map { "    */main.o(\".text.\($0)\")\n" }.joined()
            + "    */libx.a:lib.o(\".text\")\n  }\n}\nINSERT BEFORE .text;\n"
    }

    @Test("check: an order whose functions the code still has passes; one naming functions that no longer exist is caught as stale")
    func checkCatchesAStaleOrder() async throws {
        try await TemporaryDirectory.with(prefix: "deeplinker-link-order") { directory in
            for (name, text) in Self.sources { try text.write(toFile: directory.appending(name), atomically: true, encoding: .utf8) }
            let cc = { (arguments: [String]) async throws in
                let ran = try await TestProcess.run("/usr/bin/env", ["cc"] + arguments)
                try #require(ran.status == 0, "cc \(arguments): \(ran.output)")
            }
            try await cc(["-O1", "-ffunction-sections", "-c", directory.appending("main.c"), "-o", directory.appending("main.o")])
            try await cc(["-O1", "-c", directory.appending("lib.c"), "-o", directory.appending("lib.o")])
            let archived = try await TestProcess.run("/usr/bin/ar", ["rcs", directory.appending("libx.a"), directory.appending("lib.o")])
            try #require(archived.status == 0, "\(archived.output)")
            let objects = [directory.appending("main.o"), "-L" + directory.path, "-lx", "-no-pie", "-fuse-ld=lld"]

            // The functions of today's code, then an order recorded from code whose functions were
            // renamed since: one of ten names is still there (10%), under the 90% needed.
            let fresh = directory.appending("fresh.ld")
            try Self.order(naming: ["main", "hot1", "cold1"]).write(toFile: fresh, atomically: true, encoding: .utf8)
            let stale = directory.appending("stale.ld")
            let gone = (1...9).map { "renamedAway\($0)" }
            try Self.order(naming: ["main"] + gone).write(toFile: stale, atomically: true, encoding: .utf8)
            for (script, binary) in [(fresh, "fresh"), (stale, "stale")] {
                try await cc(objects + ["-Wl,--script=" + script, "-o", directory.appending(binary)])
            }

            let passed = try await TestProcess.run(Self.check, [directory.appending("fresh"), fresh])
            #expect(passed.status == 0, "\(passed.output)")
            #expect(passed.stderr.contains("3 of the 3 functions fresh.ld names (100.0%)"), "\(passed.stderr)")

            let caught = try await TestProcess.run(Self.check, [directory.appending("stale"), stale])
            #expect(caught.status == 1, "\(caught.output)")
            #expect(caught.stderr.contains("STALE ORDER: only 1 of the 10 functions stale.ld names (10.0%)"), "\(caught.stderr)")
            #expect(caught.stderr.contains("renamedAway1"))
            #expect(caught.stderr.contains("scripts/link-order/record"))

            // The bar is the caller's: at 10% the stale order passes.
            let lowered = try await TestProcess.run(Self.check, [directory.appending("stale"), stale, "--minimum", "10"])
            #expect(lowered.status == 0, "\(lowered.output)")

            // A binary linked without the order has no .text.ordered: that is said, not passed.
            try await cc(objects + ["-o", directory.appending("unordered")])
            let unordered = try await TestProcess.run(Self.check, [directory.appending("unordered"), fresh])
            #expect(unordered.status != 0)
            #expect(unordered.stderr.contains("has no .text.ordered section"), "\(unordered.stderr)")
        }
    }

    @Test("static-build says loudly that it links without the order when ld.lld is not on PATH")
    func staticBuildWithoutLLD() async throws {
        try await TemporaryDirectory.with(prefix: "deeplinker-link-order") { directory in
            // swift and swiftc from the toolchain, without its ld.lld beside them.
            let swift = try #require(ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
                .map { String($0) + "/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) })
            let toolchain = URL(fileURLWithPath: swift).resolvingSymlinksInPath().deletingLastPathComponent().path
            for tool in ["swift", "swiftc"] {
                try FileManager.default.createSymbolicLink(atPath: directory.appending(tool), withDestinationPath: toolchain + "/" + tool)
            }
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = directory.path + ":/usr/bin:/bin"
            // --show-bin-path only prints the path: nothing is built or removed.
            let ran = try await TestProcess.run(
                TestFiles.repository("scripts/static-build"), ["--show-bin-path"], environment: environment)
            #expect(ran.status == 0, "\(ran.output)")
            #expect(ran.stderr.contains("WARNING: ld.lld is not on PATH"), "\(ran.stderr)")
            #expect(ran.stderr.contains("is NOT used"))

            environment["PATH"] = directory.path + ":" + toolchain + ":/usr/bin:/bin"
            let withLLD = try await TestProcess.run(
                TestFiles.repository("scripts/static-build"), ["--show-bin-path"], environment: environment)
            #expect(withLLD.status == 0, "\(withLLD.output)")
            #expect(!withLLD.stderr.contains("WARNING"), "\(withLLD.stderr)")
        }
    }
}
