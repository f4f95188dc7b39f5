extension PathPattern {
    /// Nil when the pattern fits the decoded segments, else why not (for `deeplinker route`).
    public func misfit(_ path: [String]) -> String? {
        for (i, segment) in segments.enumerated() {
            switch segment {
            case .literal(let text):
                guard i < path.count else { return "the URL path ends before segment \(i + 1) '\(text)'" }
                if path[i] != text { return "segment \(i + 1) is '\(path[i])', not '\(text)'" }
            case .capture(let name):
                guard i < path.count else { return "the URL path ends before capture ':\(name)'" }
            case .rest(let name):
                guard i < path.count else { return "'*\(name)' needs at least one more segment" }
                return nil
            }
        }
        if path.count > segments.count {
            return "the URL path has \(path.count) segments, the pattern \(segments.count)"
        }
        return nil
    }

    /// The capture values of a fitting path.
    public func captures(in path: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for (i, segment) in segments.enumerated() where i < path.count {
            switch segment {
            case .literal: break
            case .capture(let name): values[name] = path[i]
            case .rest(let name): values[name] = path[i...].joined(separator: "/")
            }
        }
        return values
    }
}
