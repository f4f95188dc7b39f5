/// The installed app ids nearest to one that names no installed app ("did you mean …", SPEC §7):
/// Levenshtein distance ignoring case, within a small threshold. Pure: the candidates are given.
public enum AppIDSuggestions {
    /// At most this many suggestions.
    public static let limit = 3

    /// The largest distance still suggested for `appID`: a typo or two, more for long ids.
    public static func threshold(for appID: String) -> Int {
        max(2, appID.count / 4)
    }

    /// Levenshtein distance (insertions, deletions, substitutions of characters), case-insensitive.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The candidates within ``threshold(for:)`` of `appID`, nearest first (then by name), at most
    /// ``limit``; `appID` itself is never suggested (one that differs only in case is: ids are
    /// case-sensitive).
    public static func nearest(to appID: String, among candidates: some Sequence<String>) -> [String] {
        let threshold = threshold(for: appID)
        var seen = Set<String>()
        let scored = candidates.compactMap { candidate -> (Int, String)? in
            guard candidate != appID, seen.insert(candidate).inserted,
                  abs(candidate.count - appID.count) <= threshold else { return nil }
            let d = distance(appID, candidate)
            return d <= threshold ? (d, candidate) : nil
        }
        return scored.sorted { $0 < $1 }.prefix(limit).map(\.1)
    }
}
