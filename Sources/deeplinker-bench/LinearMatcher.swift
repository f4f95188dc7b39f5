import DeeplinkerCore

/// A straightforward linear matcher for comparison: every route, in match order, compares
/// its pattern components against the URL's path components; the first that fits wins. Like the
/// trie benchmark it only finds the route (captures are read afterwards). Its cost grows with the number of routes.
struct LinearMatcher {
    private enum Component {
        case literal(String)
        case capture(String)
        case rest(String)
    }

    /// Pattern components of every route, in match order, and each route's position in file order.
    private let components: [[Component]]
    private let positions: [Int]

    init(routes: [RouteRule]) {
        let order = routes.indices.sorted { routes[$0].precedes(routes[$1]) }
        positions = order
        components = order.map { position in
            routes[position].pattern.segments.map {
                switch $0 {
                case .literal(let s): .literal(s)
                case .capture(let n): .capture(n)
                case .rest(let n): .rest(n)
                }
            }
        }
    }

    /// The file-order position of the first route in match order whose pattern fits.
    func match(_ path: [String]) -> Int? {
        outer: for (n, pattern) in components.enumerated() {
            for (i, component) in pattern.enumerated() {
                switch component {
                case .literal(let text):
                    guard i < path.count, path[i] == text else { continue outer }
                case .capture:
                    guard i < path.count else { continue outer }
                case .rest:
                    guard i < path.count else { continue outer }
                    return positions[n]
                }
            }
            if pattern.count == path.count { return positions[n] }
        }
        return nil
    }
}
