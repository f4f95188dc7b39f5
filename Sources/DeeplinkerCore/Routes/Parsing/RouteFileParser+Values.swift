extension RouteFileParser {
    /// An error at the value (or, with `atKey`, the key) of `path`.
    func fail(_ path: TOMLKeyPath, _ message: String, atKey: Bool = false) -> ConfigError {
        let location = document.location(path, preferValue: !atKey)
        return ConfigError(file: file, line: location.line, column: location.column, message: "\(path): \(message)")
    }

    /// A short rendering of a value for messages: strings quoted (control characters escaped),
    /// tables and arrays by kind.
    func render(_ value: TOMLValue) -> String {
        switch value.kind {
        case .string(let s): "\"" + TOMLKeyPath.escaped(s) + "\""
        case .integer(let n): String(n)
        case .float(let d): "\(d)"
        case .boolean(let b): "\(b)"
        case .offsetDateTime(let text), .localDateTime(let text), .localDate(let text), .localTime(let text): text
        case .table: "a table"
        case .array: "an array"
        }
    }

    func typeError(_ value: TOMLValue, at path: TOMLKeyPath, expected: String) -> ConfigError {
        fail(path, "expected \(expected), found \(render(value))")
    }

    /// A string value. Strings (like keys) must not hold U+0000: D-Bus strings, argv and
    /// desktop entries cannot carry it and would silently cut the text there.
    func string(_ value: TOMLValue, at path: TOMLKeyPath) throws(ConfigError) -> String {
        guard let s = value.string else { throw typeError(value, at: path, expected: "a string") }
        guard !s.utf8.contains(0) else { throw fail(path, "strings must not contain a NUL character") }
        return s
    }

    func int(_ value: TOMLValue, at path: TOMLKeyPath) throws(ConfigError) -> Int {
        guard let n = value.integer else { throw typeError(value, at: path, expected: "an integer") }
        return Int(n)
    }

    func bool(_ value: TOMLValue, at path: TOMLKeyPath) throws(ConfigError) -> Bool {
        guard let b = value.boolean else { throw typeError(value, at: path, expected: "true or false") }
        return b
    }

    func table(_ value: TOMLValue, at path: TOMLKeyPath) throws(ConfigError) -> TOMLTable {
        guard let t = value.table else { throw typeError(value, at: path, expected: "a table") }
        return t
    }

    func array(_ value: TOMLValue, at path: TOMLKeyPath) throws(ConfigError) -> [TOMLValue] {
        guard let a = value.array else { throw typeError(value, at: path, expected: "an array") }
        return a
    }

    func stringArray(_ value: TOMLValue, at path: TOMLKeyPath) throws(ConfigError) -> [String] {
        var out: [String] = []
        for (i, element) in try array(value, at: path).enumerated() {
            out.append(try string(element, at: path.appending(i)))
        }
        return out
    }

    /// A string, integer or boolean rendered as text (fixed parameter values, `equals`).
    func scalarText(_ value: TOMLValue, at path: TOMLKeyPath) throws(ConfigError) -> String {
        switch value.kind {
        case .string: return try string(value, at: path)
        case .integer(let n): return String(n)
        case .boolean(let b): return b ? "true" : "false"
        default: throw typeError(value, at: path, expected: "a string, integer or boolean")
        }
    }

    func enumValue<E: RawRepresentable & CaseIterable>(_ value: TOMLValue, at path: TOMLKeyPath, _: E.Type) throws(ConfigError) -> E
    where E.RawValue == String {
        let text = try string(value, at: path)
        guard let e = E(rawValue: text) else {
            let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw fail(path, "invalid value \"\(text)\" (expected one of \(allowed))")
        }
        return e
    }

    func duration(_ value: TOMLValue, at path: TOMLKeyPath) throws(ConfigError) -> Duration {
        let text = try string(value, at: path)
        guard let d = Duration(configString: text) else {
            throw fail(path, "invalid duration \"\(text)\" (expected \"0\" or e.g. \"500ms\", \"2s\", \"10m\", \"1h30m\", \"1d\"; at most 365d)")
        }
        return d
    }

    /// A dotted payload path such as `data.messageId`.
    func dottedPath(_ value: TOMLValue, at path: TOMLKeyPath) throws(ConfigError) -> String {
        let text = try string(value, at: path)
        guard !text.isEmpty, !text.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
            throw fail(path, "invalid payload path \"\(text)\" (expected dotted keys like \"data.messageId\")")
        }
        return text
    }

    /// The key of `entry` (of the table at `path`), checked for U+0000 like strings (see `string`).
    /// Tables are read entry by entry in file order, so the first problem reported is the first written.
    func key(_ entry: TOMLTable.Entry, at path: TOMLKeyPath) throws(ConfigError) -> String {
        guard !entry.key.utf8.contains(0) else {
            throw fail(path.appending(entry.key), "keys must not contain a NUL character", atKey: true)
        }
        return entry.key
    }

    func checkKeys(_ table: TOMLTable, at path: TOMLKeyPath, allowed: Set<String>) throws(ConfigError) {
        for entry in table.entries {
            let key = try key(entry, at: path)
            guard !allowed.contains(key) else { continue }
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
    func fixedParams(_ value: TOMLValue?, at path: TOMLKeyPath, target: TargetSchema) throws(ConfigError) -> [String: String] {
        guard let value else { return [:] }
        let t = try table(value, at: path)
        var out: [String: String] = [:]
        for entry in t.entries {
            let key = try key(entry, at: path)
            let keyPath = path.appending(key)
            guard let spec = target.parameters[key] else {
                throw fail(keyPath, "parameter \"\(key)\" is not declared by target \"\(target.name)\"", atKey: true)
            }
            let text = try scalarText(entry.value, at: keyPath)
            guard let canonical = spec.type.canonicalize(text) else {
                throw fail(keyPath, "\"\(text)\" is not a valid \(spec.type.rawValue) for parameter \"\(key)\"")
            }
            out[key] = canonical
        }
        return out
    }
}
