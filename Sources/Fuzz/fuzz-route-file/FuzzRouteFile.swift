import DeeplinkerCore

/// libFuzzer entry point: arbitrary bytes as a route file through the TOML parser and every
/// validation; a file that parses is then used to route a few URLs. Checks beyond "never traps":
/// every error has a location inside the text, and a parsed document's key lookups agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouteFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.utf8.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    do {
        let document = try TOMLDocument(parsing: text)
        for entry in document.root.entries {
            // (Values are not compared with ==: nan is not equal to itself.)
            guard document.root.entry(entry.key)?.value.location == entry.value.location,
                document.keyLocation(TOMLKeyPath([.key(entry.key)])) == entry.keyLocation,
                entry.keyLocation.line <= lines
            else { fatalError("lookup of \(entry.key.debugDescription) disagrees") }
        }
        _ = document.location(TOMLKeyPath([.key("routes"), .index(0), .key("path")]))
    } catch {
        guard error.location.line >= 1, error.location.line <= lines, error.location.column >= 1 else {
            fatalError("bad location in \(error)")
        }
    }
    do {
        let config = try RouteFileParser.parse(text, appID: "com.fuzz.R", file: "r.toml")
        let registry = AppRegistry([config])
        for url in ["x://a/b", "https://a.example/a/1?id=2", (config.schemes.first ?? "x") + "://a/1/b?x=1"] {
            _ = try? registry.resolveURL(appID: "com.fuzz.R", url: url)
        }
        for shortcut in config.shortcuts { _ = try? registry.resolveShortcut(appID: "com.fuzz.R", type: shortcut.type) }
    } catch {
        guard error.line >= 1, error.line <= lines, error.column >= 1, error.description.hasPrefix("r.toml:") else {
            fatalError("bad location in \(error)")
        }
    }
    return 0
}
