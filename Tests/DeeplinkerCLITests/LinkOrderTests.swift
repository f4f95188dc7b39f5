import DeeplinkerTestSupport
import Foundation
import Testing

/// `scripts/link-order`, which finds the functions the installed `deeplinkerd` runs so that
/// `scripts/static-build` can link them together: the tracer on a real program, and the rules
/// by which `record` turns its calls and an lld map into the order file.
@Suite("scripts/link-order")
struct LinkOrderTests {
    static let firstCalls = TestFiles.repository("scripts/link-order/first-calls.c")
    static let record = TestFiles.repository("scripts/link-order/record")

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

    /// A map in lld's format: `Swift.o` holds a whole module in `.text`, `fast.o` a section per
    /// function; `helper` is a local name defined in both.
    static let map = """
                     VMA              LMA     Size Align Out     In      Symbol
                  401000           401000     3000    16 .text
                  401000           401000     2000    16         /lib/libswiftCore.a(Swift.o):(.text)
                  401000           401000      100     1                 whole
                  401800           401800      100     1                 helper
                  403000           403000      100    16         /build/fast.o:(.text.hot)
                  403000           403000      100     1                 hot
                  403100           403100      100    16         /build/fast.o:(.text.helper)
                  403100           403100      100     1                 helper
                  403200           403200      100    16         /build/fast.o:(.text.load)
                  403200           403200      100     1                 load
                  404000           404000      100    16 .rodata
                  404000           404000      100    16         /build/data.o:(.text)
        """

    @Test func recordPutsFunctionsWithTheirOwnSectionFirstAndNamesThatMoveAWholeModuleLast() async throws {
        try await TemporaryDirectory.with(prefix: "deeplinker-link-order") { directory in
            let mapFile = directory.appending("deeplinkerd.map")
            try Self.map.write(toFile: mapFile, atomically: true, encoding: .utf8)
            // Calls in order: whole and hot (start-up), then helper's own copy and load.
            let script = """
                import importlib.machinery, importlib.util, sys
                loader = importlib.machinery.SourceFileLoader("record", sys.argv[1])
                record = importlib.util.module_from_spec(importlib.util.spec_from_loader("record", loader))
                loader.exec_module(record)
                blobs = record.whole_module_sections(sys.argv[2])
                by_address = {0x401000: (0x100, ["whole"]), 0x401800: (0x100, ["helper"]),
                              0x403000: (0x100, ["hot"]), 0x403100: (0x100, ["helper"]), 0x403200: (0x100, ["load"])}
                by_name = {"whole": [0x401000], "helper": [0x401800, 0x403100], "hot": [0x403000], "load": [0x403200]}
                print([hex(s) + "-" + hex(e) for s, e in blobs])
                print(record.order([0x401000, 0x403000, 0x403100, 0x403200], by_address, by_name, blobs))
                """
            let ran = try await TestProcess.run("/usr/bin/python3", ["-c", script, Self.record, mapFile])
            try #require(ran.status == 0, "\(ran.output)")
            let lines = ran.stdout.split(separator: "\n").map(String.init)
            // Only the whole-module input section of .text; .rodata's is not code to order.
            #expect(lines.first == "['0x401000-0x403000']")
            // Functions with a section of their own in call order, then those that move Swift.o's
            // .text: its own function, and helper, whose name has a copy in it.
            #expect(lines.last == "['hot', 'load', 'whole', 'helper']")
        }
    }
}
