import DeeplinkerCore

/// libFuzzer entry point: arbitrary bytes as a notification payload and as launch options, through
/// the JSON parser (limits), notification mapping and launch classification.
private let registry: AppRegistry = {
    let text = """
        schemes = ["p"]
        domains = ["p.example"]
        restore-last-route = true
        [targets]
        home = {}
        item = { id = "int", "data.kind" = "string?", flag = "bool?" }
        chat = { id = "string", mode = "string?" }
        [[routes]]
        path = "/item/:id"
        target = "item"
        [notifications]
        target-key = "type"
        url-key = "link"
        id-key = "meta.id"
        [[notifications.rules]]
        when = "kind"
        equals = "chat"
        target = "chat"
        params-from = { id = "conversation" }
        params = { mode = "reply" }
        [[notifications.rules]]
        when = "data.chat"
        target = "chat"
        params-from = { id = "data.chat" }
        [[shortcuts]]
        type = "p.home"
        title = "Home"
        target = "home"
        """
    return AppRegistry([try! RouteFileParser.parse(text, appID: "com.fuzz.P", file: "p.toml")])
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayloadMapping(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let value = try? JSONParser.parse(bytes: bytes) {
        _ = value.flattenedScalars()
        _ = try? registry.apps["com.fuzz.P"]!.resolveNotification(value)
    }
    let text = String(decoding: bytes, as: UTF8.self)
    _ = try? registry.resolveNotification(appID: "com.fuzz.P", payloadJSON: text)
    _ = try? LaunchClassifier.classify(text)
    _ = try? registry.resolveLaunch(appID: "com.fuzz.P", optionsJSON: text)
    return 0
}
