import DeeplinkerCore

/// libFuzzer entry point: arbitrary bytes as a URL through validation, app lookup, matching and
/// explanation. Besides crashes it traps on broken invariants: the trie and the linear explanation
/// agree, and every routed parameter is already canonical for its declared type.
private let registry: AppRegistry = {
    let files = [
        ("com.fuzz.A", """
            schemes = ["a", "shared"]
            domains = ["a.example", "*.a.example", "bücher.example"]
            fallback-target = "web"
            [targets]
            web = { url = "string" }
            home = { tab = "string?" }
            item = { id = "int", flag = "bool?", ref = "uuid?", q = "string?" }
            files = { path = "string", v = "int?" }
            [[routes]]
            path = "/"
            target = "home"
            [[routes]]
            path = "/item/:id"
            target = "item"
            params = { flag = true }
            [[routes]]
            path = "/item"
            target = "item"
            [[routes]]
            path = "/:q/item/:id"
            target = "item"
            priority = 1
            [[routes]]
            path = "/files/*path"
            target = "files"
            [[routes]]
            path = "/files/private/*rest"
            exclude = true
            """),
        ("com.fuzz.B", """
            schemes = ["b", "shared"]
            domains = ["b.example", "*.example"]
            [targets]
            t = { x = "string?", y = "int?" }
            [[routes]]
            path = "/:x/:y"
            target = "t"
            [[routes]]
            path = "/x/*x"
            target = "t"
            """),
    ]
    return AppRegistry(files.map { try! RouteFileParser.parse($0.1, appID: $0.0, file: $0.0 + ".toml") })
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURLMatching(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let url = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for appID in ["", "com.fuzz.A", "com.fuzz.B"] {
        let result = Result { () throws(DeeplinkerError) in try registry.resolveURL(appID: appID, url: url) }
        let explanation = registry.explainURL(appID: appID, url: url)
        if case .success(let resolved) = result {
            let config = registry.apps[resolved.appID]!
            let schema = config.targets[resolved.route.target]!
            for (name, value) in resolved.route.parameters {
                guard let spec = schema.parameters[name], spec.type.canonicalize(value) == value else {
                    fatalError("non-canonical parameter \(name)=\(value) for \(url)")
                }
            }
            if resolved.routePattern != "(fallback)" {
                let selected = explanation.candidates.first { $0.verdict == .selected }?.pattern
                guard selected == resolved.routePattern else { fatalError("trie chose \(resolved.routePattern ?? "") but linear \(selected ?? "none") for \(url)") }
            }
        }
        _ = explanation.lines
    }
    return 0
}
