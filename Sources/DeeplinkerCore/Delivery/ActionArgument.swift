/// The parameter of an `ActivateAction` call, chosen by the type the app gives the action in
/// `org.gtk.Actions.DescribeAll` (SPEC §3, Delivery): real apps' actions take no parameter or one
/// basic value, apps written for Deeplinker take the route's parameters as `a{ss}`.
public enum ActionArgument: Sendable, Hashable {
    /// No parameter (the action's type is empty).
    case none
    /// `a{ss}`: the route's parameters (also when the app does not answer `DescribeAll`).
    case parameters([String: String])
    case string(String)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case boolean(Bool)
    case double(Double)

    /// The basic types a route value converts to (`s i u x t b d`), each with what it means in messages.
    public static let basicTypes: [String: String] = [
        "s": "a string", "i": "a 32-bit signed integer", "u": "a 32-bit unsigned integer",
        "x": "a 64-bit signed integer", "t": "a 64-bit unsigned integer", "b": "a boolean (true/false/1/0)",
        "d": "a finite decimal number",
    ]

    /// The argument for `route`'s action, given the actions the app describes (action name →
    /// parameter type signature, `""` for none; nil when the app did not answer `DescribeAll`) and
    /// the parameters `route.target` declares. A missing action or a type the route cannot fill is
    /// a ``ActionRefusal``, whose detail names the action and its type.
    public static func resolve(
        route: Route, actions: [String: String]?, declaredParameters: [String]
    ) -> Result<ActionArgument, ActionRefusal> {
        guard let actions else { return .success(.parameters(route.parameters)) }
        let action = route.target
        guard let type = actions[action] else { return .failure(.missingAction(action: action)) }
        switch type {
        case "": return .success(.none)
        case "a{ss}": return .success(.parameters(route.parameters))
        default: break
        }
        guard basicTypes[type] != nil else { return .failure(.unsupportedType(action: action, type: type)) }
        guard declaredParameters.count == 1, let name = declaredParameters.first else {
            return .failure(.parameterCount(action: action, type: type, target: route.target, declared: declaredParameters.count))
        }
        guard let text = route.parameters[name] else {
            return .failure(.missingValue(action: action, type: type, parameter: name))
        }
        guard let argument = convert(text, to: type) else {
            return .failure(.invalidValue(action: action, type: type, parameter: name))
        }
        return .success(argument)
    }

    /// `text` as a value of the basic `type`, nil when it is not one or is out of its range.
    public static func convert(_ text: String, to type: String) -> ActionArgument? {
        switch type {
        case "s": return .string(text)
        case "i": return integer(text).flatMap { Int32(exactly: $0) }.map(ActionArgument.int32)
        case "u": return unsigned(text).flatMap { UInt32(exactly: $0) }.map(ActionArgument.uint32)
        case "x": return integer(text).map(ActionArgument.int64)
        case "t": return unsigned(text).map(ActionArgument.uint64)
        case "b": return ParameterType.bool.canonicalize(text).map { .boolean($0 == "true") }
        case "d":
            // Decimal notation only (no "nan", "inf" or hexadecimal), and finite.
            let allowed = text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E || $0 == 0x45 || $0 == 0x65 }
            guard allowed, text.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }), let value = Double(text), value.isFinite else { return nil }
            return .double(value)
        default: return nil
        }
    }

    /// A 64-bit signed decimal integer, as the `int` parameter type reads it.
    private static func integer(_ text: String) -> Int64? {
        ParameterType.int.canonicalize(text).flatMap { Int64($0) }
    }

    /// A 64-bit unsigned decimal integer (an optional `+`, no `-`).
    private static func unsigned(_ text: String) -> UInt64? {
        let digits = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return UInt64(digits)
    }
}

/// Why a route cannot go to the app's action: the invocation fails at once with ``detail``, which
/// names the action and its type and never a parameter's value (SPEC §3, Delivery).
public enum ActionRefusal: Error, Sendable, Hashable {
    /// The app's `DescribeAll` does not list the action.
    case missingAction(action: String)
    /// The action's type is not `a{ss}`, empty or one basic type.
    case unsupportedType(action: String, type: String)
    /// A basic type needs a target that declares exactly one parameter.
    case parameterCount(action: String, type: String, target: String, declared: Int)
    /// The target's one parameter is optional and the route has no value for it.
    case missingValue(action: String, type: String, parameter: String)
    /// The value is not of the type, or out of its range.
    case invalidValue(action: String, type: String, parameter: String)

    /// The invocation's `detail` and the log's words.
    public var detail: String {
        switch self {
        case .missingAction(let action):
            "the app has no action \"\(action)\" (not in its org.gtk.Actions.DescribeAll)"
        case .unsupportedType(let action, let type):
            "action \"\(action)\" takes type \(type), which a route cannot fill (a{ss}, none or one of s i u x t b d)"
        case .parameterCount(let action, let type, let target, let declared):
            "action \"\(action)\" takes type \(type), but target \"\(target)\" declares \(declared) parameters (a basic type takes exactly one)"
        case .missingValue(let action, let type, let parameter):
            "action \"\(action)\" takes type \(type), but the route has no value for parameter \"\(parameter)\""
        case .invalidValue(let action, let type, let parameter):
            "action \"\(action)\" takes type \(type), but parameter \"\(parameter)\" is not \(ActionArgument.basicTypes[type] ?? type) in range"
        }
    }
}
