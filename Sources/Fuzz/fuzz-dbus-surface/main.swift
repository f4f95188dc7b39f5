import DBusKit
import Foundation

/// libFuzzer entry points. Arbitrary bytes become one D-Bus method call to the daemon's object,
/// sent over a private bus to a daemon built by `buildDaemon` (the same export, dispatch, argument
/// checks and handlers as `deeplinkerd`) on an in-memory store with the example route files. Each
/// call must be answered in time with a return or a named error, and the daemon must stay up.

/// Starts the bus and the daemon once per process (and writes seed inputs when asked).
@_cdecl("LLVMFuzzerInitialize")
public func fuzzDBusSurfaceInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>>>) -> CInt {
    if let directory = ProcessInfo.processInfo.environment["DEEPLINKER_FUZZ_WRITE_SEEDS"] {
        SurfaceSeeds.write(to: directory)
    }
    _ = SurfaceHarness.shared
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDBusSurface(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard let message = SurfaceHarness.shared.message(for: bytes) else { return 0 }
    SurfaceHarness.shared.send(message)
    return 0
}
