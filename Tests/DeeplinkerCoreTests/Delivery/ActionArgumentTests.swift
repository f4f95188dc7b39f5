import DeeplinkerCore
import Testing

/// `activate-action` follows the action's own type from `DescribeAll` (SPEC §3, Delivery): every
/// basic type converted with its range, and every refusal naming the action and its type.
@Suite struct ActionArgumentTests {
    static func route(_ target: String = "go", _ parameters: [String: String] = [:]) -> Route {
        Route(target: target, parameters: parameters, source: .url)
    }

    static func resolve(type: String, value: String?, declared: [String] = ["v"]) -> Result<ActionArgument, ActionRefusal> {
        ActionArgument.resolve(
            route: route("go", value.map { ["v": $0] } ?? [:]), actions: ["go": type, "other": ""], declaredParameters: declared)
    }

    @Test func anAppThatDoesNotDescribeItsActionsGetsTheParametersAsADictionary() {
        let result = ActionArgument.resolve(route: Self.route("go", ["a": "1", "b": "x"]), actions: nil, declaredParameters: ["a", "b"])
        #expect(result == .success(.parameters(["a": "1", "b": "x"])))
    }

    @Test func anActionOfTypeDictionaryGetsTheParameters() {
        let result = ActionArgument.resolve(route: Self.route("go", ["a": "1"]), actions: ["go": "a{ss}"], declaredParameters: ["a", "b"])
        #expect(result == .success(.parameters(["a": "1"])))
    }

    @Test func aParameterlessActionGetsNothingWhateverTheRouteCarries() {
        let result = ActionArgument.resolve(route: Self.route("go", ["a": "1"]), actions: ["go": ""], declaredParameters: ["a"])
        #expect(result == .success(.none))
    }

    @Test(arguments: [
        ("s", "héllo wörld", ActionArgument.string("héllo wörld")),
        ("s", "", .string("")),
        ("i", "-2147483648", .int32(.min)),
        ("i", "2147483647", .int32(.max)),
        ("i", "+007", .int32(7)),
        ("u", "0", .uint32(0)),
        ("u", "4294967295", .uint32(.max)),
        ("x", "-9223372036854775808", .int64(.min)),
        ("x", "9223372036854775807", .int64(.max)),
        ("t", "18446744073709551615", .uint64(.max)),
        ("t", "+0", .uint64(0)),
        ("b", "true", .boolean(true)),
        ("b", "1", .boolean(true)),
        ("b", "false", .boolean(false)),
        ("b", "0", .boolean(false)),
        ("d", "2.5", .double(2.5)),
        ("d", "-1e3", .double(-1000)),
        ("d", "42", .double(42)),
    ] as [(String, String, ActionArgument)])
    func eachBasicTypeTakesTheTargetsOnlyParameter(type: String, value: String, expected: ActionArgument) {
        #expect(Self.resolve(type: type, value: value) == .success(expected))
    }

    @Test(arguments: [
        ("i", "2147483648"), ("i", "-2147483649"), ("i", "1.5"), ("i", "abc"), ("i", ""),
        ("u", "-1"), ("u", "4294967296"), ("u", "0x10"),
        ("x", "9223372036854775808"), ("x", "-9223372036854775809"), ("x", "1e3"),
        ("t", "-1"), ("t", "18446744073709551616"), ("t", " 1"),
        ("b", "yes"), ("b", "TRUE"), ("b", ""),
        ("d", "nan"), ("d", "inf"), ("d", "1e999"), ("d", "0x1p3"), ("d", "."), ("d", ""),
    ] as [(String, String)])
    func aValueOutOfTheTypeOrItsRangeIsRefusedWithoutTheValue(type: String, value: String) {
        let result = Self.resolve(type: type, value: value)
        #expect(result == .failure(.invalidValue(action: "go", type: type, parameter: "v")))
        guard case .failure(let refusal) = result else { return }
        #expect(refusal.detail.contains("\"go\"") && refusal.detail.contains("type \(type)"))
        if value.count > 2 { #expect(!refusal.detail.contains(value), "the detail never carries a parameter value") }
    }

    @Test func aMissingActionIsRefusedNamingIt() {
        let result = ActionArgument.resolve(route: Self.route("nope"), actions: ["go": ""], declaredParameters: [])
        #expect(result == .failure(.missingAction(action: "nope")))
        if case .failure(let refusal) = result { #expect(refusal.detail.contains("no action \"nope\"")) }
    }

    @Test(arguments: ["(ss)", "as", "a{sv}", "o", "g", "y", "n", "q", "h", "v", "(i)", "ai"])
    func aTypeNoRouteCanFillIsRefusedNamingActionAndType(type: String) {
        let result = Self.resolve(type: type, value: "1")
        #expect(result == .failure(.unsupportedType(action: "go", type: type)))
        if case .failure(let refusal) = result { #expect(refusal.detail.contains("action \"go\" takes type \(type)")) }
    }

    @Test(arguments: [[String](), ["a", "b"]])
    func aBasicTypeNeedsATargetWithExactlyOneParameter(declared: [String]) {
        let result = Self.resolve(type: "s", value: "x", declared: declared)
        #expect(result == .failure(.parameterCount(action: "go", type: "s", target: "go", declared: declared.count)))
    }

    @Test func anOptionalParameterTheRouteLacksIsRefused() {
        let result = Self.resolve(type: "i", value: nil)
        #expect(result == .failure(.missingValue(action: "go", type: "i", parameter: "v")))
        if case .failure(let refusal) = result { #expect(refusal.detail.contains("no value for parameter \"v\"")) }
    }
}
