import Testing
@testable import DeeplinkerCore

/// Parameter types check and canonicalise values (SPEC §5).
struct ParameterTypeTests {
    @Test(arguments: [
        ("7", "7"), ("007", "7"), ("+7", "7"), ("-0", "0"), ("-12", "-12"),
        ("9223372036854775807", "9223372036854775807"), ("-9223372036854775808", "-9223372036854775808"),
    ])
    func intCanonical(input: String, expected: String) {
        #expect(ParameterType.int.canonicalize(input) == expected)
    }

    @Test(arguments: ["", "+", "-", "1.0", "1e3", "0x10", " 1", "1 ", "9223372036854775808", "-9223372036854775809", "١", "12a"])
    func intRejects(input: String) {
        #expect(ParameterType.int.canonicalize(input) == nil)
    }

    @Test func bool() {
        #expect(ParameterType.bool.canonicalize("true") == "true")
        #expect(ParameterType.bool.canonicalize("1") == "true")
        #expect(ParameterType.bool.canonicalize("false") == "false")
        #expect(ParameterType.bool.canonicalize("0") == "false")
        for bad in ["yes", "TRUE", "2", ""] { #expect(ParameterType.bool.canonicalize(bad) == nil) }
    }

    @Test func uuid() {
        #expect(ParameterType.uuid.canonicalize("0E9A2C1B-5F3D-4A6B-8C7D-1E2F3A4B5C6D") == "0e9a2c1b-5f3d-4a6b-8c7d-1e2f3a4b5c6d")
        for bad in ["0e9a2c1b5f3d4a6b8c7d1e2f3a4b5c6d", "{0e9a2c1b-5f3d-4a6b-8c7d-1e2f3a4b5c6d}", "0e9a2c1b-5f3d-4a6b-8c7d-1e2f3a4b5c6g", ""] {
            #expect(ParameterType.uuid.canonicalize(bad) == nil)
        }
    }

    @Test func stringIsUnchanged() {
        #expect(ParameterType.string.canonicalize(" a+b ") == " a+b ")
    }

    @Test func specNotation() {
        #expect(ParameterSpec(notation: "int?") == ParameterSpec(type: .int, optional: true))
        #expect(ParameterSpec(notation: "uuid") == ParameterSpec(type: .uuid, optional: false))
        #expect(ParameterSpec(notation: "integer") == nil)
        #expect(ParameterSpec(notation: "int??") == nil)
    }

    @Test func binderPrecedenceAndErrors() throws {
        let target = TargetSchema(name: "t", parameters: ["a": .init(type: .int), "b": .init(type: .string, optional: true)])
        let bound = try ParameterBinder.bind(
            target: target, fixed: [:], captures: ["a": "07"],
            candidates: [QueryItem(name: "a", value: "9"), QueryItem(name: "b", value: "x"), QueryItem(name: "b", value: "y"), QueryItem(name: "c", value: "z")])
        #expect(bound == ["a": "7", "b": "x"])
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try ParameterBinder.bind(target: target) }
            == .invalidParameter(name: "a", value: nil, reason: "missing required int parameter of target 't'"))
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try ParameterBinder.bind(target: target, captures: ["a": "x"]) }
            == .invalidParameter(name: "a", value: "x", reason: "not a valid int"))
    }
}
