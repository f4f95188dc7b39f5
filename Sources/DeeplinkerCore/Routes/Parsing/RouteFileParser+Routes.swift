extension RouteFileParser {
    func parseTargets(_ value: TOMLValue?, at path: TOMLKeyPath) throws(ConfigError) -> [String: TargetSchema] {
        guard let value else { return [:] }
        let t = try table(value, at: path)
        var targets: [String: TargetSchema] = [:]
        for entry in t.entries {
            let name = try key(entry, at: path)
            let targetPath = path.appending(name)
            guard TargetSchema.isValidName(name) else {
                throw fail(targetPath, "invalid target name \"\(name)\" (use letters, digits, '-' and '.')", atKey: true)
            }
            let schemaTable = try table(entry.value, at: targetPath)
            var schema = TargetSchema(name: name)
            for paramEntry in schemaTable.entries {
                let param = try key(paramEntry, at: targetPath)
                let paramPath = targetPath.appending(param)
                let paramValue = paramEntry.value
                if paramValue.table != nil {
                    throw fail(paramPath, "parameter \"\(param)\" of target \"\(name)\" must be a type such as \"int?\"; to name a target with a dot, quote it: \"\(name).\(param)\" = { ... }", atKey: true)
                }
                guard TargetSchema.isValidParameterName(param) else {
                    throw fail(paramPath, "invalid parameter name \"\(param)\" (use letters, digits, '_', '-' and '.')", atKey: true)
                }
                let notation = try string(paramValue, at: paramPath)
                guard let spec = ParameterSpec(notation: notation) else {
                    throw fail(paramPath, "invalid parameter type \"\(notation)\" (expected string, int, bool or uuid, optionally followed by '?')")
                }
                schema.parameters[param] = spec
            }
            guard schema.parameters.count <= Limits.parametersPerRoute else {
                throw fail(targetPath, "target \"\(name)\" declares \(schema.parameters.count) parameters; at most \(Limits.parametersPerRoute) are allowed", atKey: true)
            }
            targets[name] = schema
        }
        return targets
    }

    func parseRoutes(_ value: TOMLValue?, at path: TOMLKeyPath, targets: [String: TargetSchema]) throws(ConfigError) -> [RouteRule] {
        guard let value else { return [] }
        var routes: [RouteRule] = []
        var seen: [String: Int] = [:]
        let allowed: Set<String> = ["path", "target", "params", "priority", "exclude"]
        for (i, element) in try array(value, at: path).enumerated() {
            let routePath = path.appending(i)
            let t = try table(element, at: routePath)
            try checkKeys(t, at: routePath, allowed: allowed)
            guard let patternValue = t["path"] else { throw fail(routePath, "missing key \"path\"", atKey: true) }
            let patternPath = routePath.appending("path")
            let patternText = try string(patternValue, at: patternPath)
            let pattern: PathPattern
            do {
                pattern = try PathPattern(parsing: patternText)
            } catch {
                throw fail(patternPath, "invalid path pattern \"\(patternText)\": \(error.message)")
            }
            let exclude = try t["exclude"].map { v throws(ConfigError) in try bool(v, at: routePath.appending("exclude")) } ?? false
            let priority = try t["priority"].map { v throws(ConfigError) in try int(v, at: routePath.appending("priority")) } ?? 0

            var target: String?
            var params: [String: String] = [:]
            if exclude {
                for key in ["target", "params"] where t[key] != nil {
                    throw fail(routePath.appending(key), "an exclude route takes no \(key)", atKey: true)
                }
            } else {
                guard let targetValue = t["target"] else {
                    throw fail(routePath, "missing key \"target\" (or exclude = true)", atKey: true)
                }
                let targetPath = routePath.appending("target")
                let schema = try declaredTarget(try string(targetValue, at: targetPath), in: targets, at: targetPath)
                for name in pattern.captureNames where schema.parameters[name] == nil {
                    throw fail(patternPath, "capture \"\(name)\" in \"\(patternText)\" is not a parameter of target \"\(schema.name)\"")
                }
                params = try fixedParams(t["params"], at: routePath.appending("params"), target: schema)
                if let clash = pattern.captureNames.first(where: { params[$0] != nil }) {
                    throw fail(routePath.appending("params").appending(clash), "parameter \"\(clash)\" is both captured by the path and fixed in params", atKey: true)
                }
                target = schema.name
            }
            let key = "\(priority) \(pattern.shape)"
            if let first = seen[key] {
                let other = document.location(path.appending(first).appending("path"))
                throw fail(patternPath, "duplicate pattern \"\(patternText)\" with priority \(priority): routes[\(first)] (line \(other.line)) has the same pattern")
            }
            seen[key] = i
            routes.append(RouteRule(index: i, pattern: pattern, target: target, params: params, priority: priority, exclude: exclude))
        }
        return routes
    }
}
