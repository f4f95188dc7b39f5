import TOMLKit

extension RouteFileParser {
    /// An error at the value (or, with `atKey`, the key) of `path`.
    func fail(_ path: TOMLKeyPath, _ message: String, atKey: Bool = false) -> ConfigError {
        let location = locator?.location(path, preferValue: !atKey) ?? TextLocation(line: 1, column: 1)
        return ConfigError(file: file, line: location.line, column: location.column, message: "\(path): \(message)")
    }

    /// A short rendering of a value for messages: strings quoted, tables and arrays by kind.
    func render(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .string: "\"\(value.string ?? "")\""
        case .int: value.int.map(String.init) ?? "integer"
        case .double: value.double.map { "\($0)" } ?? "float"
        case .bool: value.bool.map { "\($0)" } ?? "boolean"
        case .table: "a table"
        case .array: "an array"
        default: "a \(value.type)"
        }
    }

    func typeError(_ value: TOMLValueConvertible, at path: TOMLKeyPath, expected: String) -> ConfigError {
        fail(path, "expected \(expected), found \(render(value))")
    }

    func string(_ value: TOMLValueConvertible, at path: TOMLKeyPath) throws(ConfigError) -> String {
        guard value.type == .string, let s = value.string else { throw typeError(value, at: path, expected: "a string") }
        return s
    }

    func int(_ value: TOMLValueConvertible, at path: TOMLKeyPath) throws(ConfigError) -> Int {
        guard value.type == .int, let n = value.int else { throw typeError(value, at: path, expected: "an integer") }
        return n
    }

    func bool(_ value: TOMLValueConvertible, at path: TOMLKeyPath) throws(ConfigError) -> Bool {
        guard value.type == .bool, let b = value.bool else { throw typeError(value, at: path, expected: "true or false") }
        return b
    }

    func table(_ value: TOMLValueConvertible, at path: TOMLKeyPath) throws(ConfigError) -> TOMLTable {
        guard value.type == .table, let t = value.table else { throw typeError(value, at: path, expected: "a table") }
        return t
    }

    func array(_ value: TOMLValueConvertible, at path: TOMLKeyPath) throws(ConfigError) -> [TOMLValueConvertible] {
        guard value.type == .array, let a = value.array else { throw typeError(value, at: path, expected: "an array") }
        return Array(a)
    }

    func stringArray(_ value: TOMLValueConvertible, at path: TOMLKeyPath) throws(ConfigError) -> [String] {
        var out: [String] = []
        for (i, element) in try array(value, at: path).enumerated() {
            out.append(try string(element, at: path.appending(i)))
        }
        return out
    }

    /// A string, integer or boolean rendered as text (fixed parameter values, `equals`).
    func scalarText(_ value: TOMLValueConvertible, at path: TOMLKeyPath) throws(ConfigError) -> String {
        switch value.type {
        case .string: return value.string ?? ""
        case .int: return String(value.int ?? 0)
        case .bool: return (value.bool ?? false) ? "true" : "false"
        default: throw typeError(value, at: path, expected: "a string, integer or boolean")
        }
    }

    func enumValue<E: RawRepresentable & CaseIterable>(_ value: TOMLValueConvertible, at path: TOMLKeyPath, _: E.Type) throws(ConfigError) -> E
    where E.RawValue == String {
        let text = try string(value, at: path)
        guard let e = E(rawValue: text) else {
            let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw fail(path, "invalid value \"\(text)\" (expected one of \(allowed))")
        }
        return e
    }

    func duration(_ value: TOMLValueConvertible, at path: TOMLKeyPath) throws(ConfigError) -> Duration {
        let text = try string(value, at: path)
        guard let d = Duration(configString: text) else {
            throw fail(path, "invalid duration \"\(text)\" (expected \"0\" or e.g. \"500ms\", \"2s\", \"10m\", \"1h30m\", \"1d\"; at most 365d)")
        }
        return d
    }

    /// A dotted payload path such as `data.messageId`.
    func dottedPath(_ value: TOMLValueConvertible, at path: TOMLKeyPath) throws(ConfigError) -> String {
        let text = try string(value, at: path)
        guard !text.isEmpty, !text.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
            throw fail(path, "invalid payload path \"\(text)\" (expected dotted keys like \"data.messageId\")")
        }
        return text
    }

    /// The value of a key listed by `table.keys`. TOMLKit cuts keys at an escaped NUL (`"a\u0000b"`),
    /// so such a key cannot be looked up again: that is reported instead of trapping.
    func member(_ table: TOMLTable, _ key: String, at path: TOMLKeyPath) throws(ConfigError) -> TOMLValueConvertible {
        guard let value = table[key] else {
            throw fail(path.appending(key), "keys must not contain a NUL character", atKey: true)
        }
        return value
    }

    /// Keys of a table in the order they are written.
    func orderedKeys(_ table: TOMLTable, at path: TOMLKeyPath) -> [String] {
        guard let locator else { return table.keys }
        return table.keys.sorted { a, b in
            let la = locator.keyLocation(path.appending(a)), lb = locator.keyLocation(path.appending(b))
            switch (la, lb) {
            case let (x?, y?): return (x.line, x.column, a) < (y.line, y.column, b)
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a < b
            }
        }
    }

    func checkKeys(_ table: TOMLTable, at path: TOMLKeyPath, allowed: Set<String>) throws(ConfigError) {
        for key in orderedKeys(table, at: path) where !allowed.contains(key) {
            let expected = allowed.sorted().joined(separator: ", ")
            throw fail(path.appending(key), "unknown key \"\(key)\" (expected one of: \(expected))", atKey: true)
        }
    }

    func declaredTarget(_ name: String, in targets: [String: TargetSchema], at path: TOMLKeyPath) throws(ConfigError) -> TargetSchema {
        guard let target = targets[name] else {
            let declared = targets.keys.sorted().joined(separator: ", ")
            throw fail(path, "undeclared target \"\(name)\" (declared: \(declared.isEmpty ? "none" : declared))")
        }
        return target
    }

    /// Fixed parameters: each declared by the target and valid for its type; returned canonicalised.
    func fixedParams(_ value: TOMLValueConvertible?, at path: TOMLKeyPath, target: TargetSchema) throws(ConfigError) -> [String: String] {
        guard let value else { return [:] }
        let t = try table(value, at: path)
        var out: [String: String] = [:]
        for key in orderedKeys(t, at: path) {
            let keyPath = path.appending(key)
            guard let spec = target.parameters[key] else {
                throw fail(keyPath, "parameter \"\(key)\" is not declared by target \"\(target.name)\"", atKey: true)
            }
            let text = try scalarText(try member(t, key, at: path), at: keyPath)
            guard let canonical = spec.type.canonicalize(text) else {
                throw fail(keyPath, "\"\(text)\" is not a valid \(spec.type.rawValue) for parameter \"\(key)\"")
            }
            out[key] = canonical
        }
        return out
    }
}
