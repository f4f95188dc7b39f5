import Testing
@testable import DeeplinkerCore

/// Notification payloads: rules, then url-key, then target-key with flattened scalars (SPEC §5).
struct NotificationMappingTests {
    static let file = """
        schemes = ["n"]
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
        id-key = "meta.nid"
        [[notifications.rules]]
        when = "chat.id"
        equals = ""
        target = "chat"
        [[notifications.rules]]
        when = "kind"
        equals = "chat"
        target = "chat"
        params-from = { id = "conversation" }
        params = { mode = "reply" }
        [[notifications.rules]]
        when = "conversation"
        target = "chat"
        params-from = { id = "conversation" }
        """

    let registry: AppRegistry
    init() throws { registry = try RoutingFixtures.registry(Self.file) }

    func resolve(_ json: String) throws(DeeplinkerError) -> ResolvedRoute {
        try registry.resolveNotification(appID: "com.example.Test", payloadJSON: json)
    }
    func failure(_ json: String) -> DeeplinkerError? {
        RoutingFixtures.error { () throws(DeeplinkerError) in try resolve(json) }
    }

    @Test func rulesInOrderWithEqualsParamsFromAndParams() throws {
        let r = try resolve(#"{"kind":"chat","conversation":42,"type":"home"}"#)
        #expect(r.route == Route(target: "chat", parameters: ["id": "42", "mode": "reply"], source: .notification))
        // equals not met → the next rule
        let next = try resolve(#"{"kind":"mail","conversation":"c1"}"#)
        #expect(next.route.parameters == ["id": "c1"])
    }

    @Test func ruleEqualsComparesRenderedText() throws {
        // equals = "" only matches an empty value; `chat.id` = 5 renders "5".
        #expect(try resolve(#"{"chat":{"id":5},"conversation":"x"}"#).route.parameters == ["id": "x"])
    }

    @Test func ruleParameterErrorsAreFinal() {
        #expect(failure(#"{"kind":"chat","type":"home"}"#) == .invalidParameter(name: "id", value: nil, reason: "missing required string parameter of target 'chat'"))
        #expect(failure(#"{"conversation":{"a":1}}"#)?.name == "InvalidParameter")
    }

    @Test func nullDoesNotSatisfyWhen() throws {
        #expect(try resolve(#"{"conversation":null,"type":"home"}"#).route.target == "home")
    }

    @Test func urlKeyRoutesLikeALink() throws {
        let r = try resolve(#"{"link":"n://item/9","type":"home","meta":{"nid":"abc"}}"#)
        #expect(r.route == Route(target: "item", parameters: ["id": "9"], source: .notification))
        #expect(r.notificationID == "abc")
        #expect(r.url == "n://item/9")
        #expect(failure(#"{"link":"other://item/9"}"#)?.name == "NoRoute")
        #expect(failure(#"{"link":"n://item/%00"}"#)?.name == "InvalidURL")
        #expect(failure(#"{"link":5}"#)?.name == "InvalidPayload")
    }

    @Test func targetKeyWithFlattenedScalars() throws {
        let r = try resolve(#"{"type":"item","id":7,"flag":true,"data":{"kind":"x"},"extra":"dropped"}"#)
        #expect(r.route == Route(target: "item", parameters: ["id": "7", "flag": "true", "data.kind": "x"], source: .notification))
        #expect(failure(#"{"type":"item","id":7.5}"#) == .invalidParameter(name: "id", value: "7.5", reason: "not a valid int"))
        #expect(failure(#"{"type":"nope"}"#)?.name == "NoRoute")
        #expect(failure(#"{"type":3}"#)?.name == "InvalidPayload")
        #expect(failure(#"{"other":1}"#)?.name == "NoRoute")
    }

    @Test func payloadShapeAndLimits() {
        #expect(failure("[1]") == .invalidPayload("a notification payload must be a JSON object"))
        #expect(failure("\"x\"")?.name == "InvalidPayload")
        #expect(failure("{")?.name == "InvalidPayload")
        #expect(failure(String(repeating: "{\"a\":", count: 33) + "1" + String(repeating: "}", count: 33))?.name == "TooLarge")
        #expect(failure("{\"type\":\"home\",\"p\":\"" + String(repeating: "x", count: 70_000) + "\"}")?.name == "TooLarge")
    }

    @Test func noMappingConfigured() throws {
        let r = try RoutingFixtures.registry("[targets]\nhome = {}")
        let e = RoutingFixtures.error { () throws(DeeplinkerError) in try r.resolveNotification(appID: "com.example.Test", payloadJSON: "{}") }
        #expect(e?.name == "NoRoute")
    }
}
