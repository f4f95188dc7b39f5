/// Builds a target's typed, canonicalised parameters from fixed values, captures and candidates
/// (query items or payload fields), in that precedence; undeclared candidates are dropped.
public enum ParameterBinder {
    /// Throws `InvalidParameter` naming the first (alphabetically) missing or ill-typed parameter.
    public static func bind(
        target: TargetSchema, fixed: [String: String] = [:], captures: [String: String] = [:],
        candidates: [QueryItem] = []
    ) throws(DeeplinkerError) -> [String: String] {
        var fromCandidates: [String: String] = [:]
        for item in candidates where target.parameters[item.name] != nil && fromCandidates[item.name] == nil {
            fromCandidates[item.name] = item.value
        }
        var result: [String: String] = [:]
        var firstError: DeeplinkerError?
        var firstErrorName = ""
        for (name, spec) in target.parameters {
            if firstError != nil, name > firstErrorName { continue }
            guard let value = fixed[name] ?? captures[name] ?? fromCandidates[name] else {
                if spec.optional { continue }
                firstError = .invalidParameter(name: name, value: nil, reason: "missing required \(spec.type.rawValue) parameter of target '\(target.name)'")
                firstErrorName = name
                continue
            }
            guard let canonical = spec.type.canonicalize(value) else {
                firstError = .invalidParameter(name: name, value: value, reason: "not a valid \(spec.type.rawValue)")
                firstErrorName = name
                continue
            }
            result[name] = canonical
        }
        if let firstError { throw firstError }
        guard result.count <= Limits.parametersPerRoute else {
            throw .tooLarge(what: "route parameters", size: result.count, limit: Limits.parametersPerRoute)
        }
        return result
    }
}
