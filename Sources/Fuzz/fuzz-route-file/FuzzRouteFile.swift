import DeeplinkerCore

/// libFuzzer entry point: arbitrary bytes as a route file through TOMLKit, the source locator and
/// every validation; a file that parses is then used to route a few URLs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouteFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let locator = TOMLSourceLocator(text: text)
    _ = locator.location(TOMLKeyPath([.key("routes"), .index(0), .key("path")]))
    do {
        let config = try RouteFileParser.parse(text, appID: "com.fuzz.R", file: "r.toml")
        let registry = AppRegistry([config])
        for url in ["x://a/b", "https://a.example/a/1?id=2", (config.schemes.first ?? "x") + "://a/1/b?x=1"] {
            _ = try? registry.resolveURL(appID: "com.fuzz.R", url: url)
        }
        for shortcut in config.shortcuts { _ = try? registry.resolveShortcut(appID: "com.fuzz.R", type: shortcut.type) }
    } catch {
        guard error.line >= 1, error.column >= 1, error.description.hasPrefix("r.toml:") else {
            fatalError("bad location in \(error)")
        }
    }
    return 0
}
