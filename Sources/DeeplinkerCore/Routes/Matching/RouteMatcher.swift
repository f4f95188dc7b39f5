/// Finds the route that decides a URL path, in time that depends on the path, not on the number of
/// routes: a segment trie whose nodes know the best (lowest) match rank below them, so the search
/// visits only branches that fit the path and can still beat the best fit found so far. Literal
/// edges live in one open-addressing table keyed by (parent node, FNV-1a of the segment).
public struct RouteMatcher: Sendable {
    /// One trie node. Ranks are positions in the match order (0 = tried first; `Int32.max` = none).
    struct Node: Sendable {
        var capture: Int32 = -1
        /// Best rank of the patterns ending here.
        var terminal: Int32 = .max
        /// Best rank of the patterns whose `*rest` starts here.
        var rest: Int32 = .max
        /// Best rank anywhere in this subtree.
        var minRank: Int32 = .max
    }

    /// The routes in file order.
    public let routes: [RouteRule]
    /// Route positions (into `routes`) in match order: priority, literals, captures, file order.
    public let order: [Int]
    private var nodes: [Node]
    private var literals: LiteralEdgeTable

    public init(routes: [RouteRule]) {
        self.routes = routes
        order = routes.indices.sorted { routes[$0].precedes(routes[$1]) }
        nodes = [Node()]
        var edges: [LiteralEdgeTable.Key: Int32] = [:]
        for (rank, position) in order.enumerated() {
            var node = 0
            let segments = routes[position].pattern.segments
            for segment in segments {
                switch segment {
                case .literal(let text):
                    let key = LiteralEdgeTable.Key(parent: Int32(node), text: text)
                    if let next = edges[key] {
                        node = Int(next)
                    } else {
                        nodes.append(Node())
                        edges[key] = Int32(nodes.count - 1)
                        node = nodes.count - 1
                    }
                case .capture:
                    if nodes[node].capture >= 0 {
                        node = Int(nodes[node].capture)
                    } else {
                        nodes.append(Node())
                        nodes[node].capture = Int32(nodes.count - 1)
                        node = nodes.count - 1
                    }
                case .rest:
                    break
                }
            }
            if case .rest = segments.last {
                nodes[node].rest = min(nodes[node].rest, Int32(rank))
            } else {
                nodes[node].terminal = min(nodes[node].terminal, Int32(rank))
            }
        }
        // Children always have higher indices than their parent, so one backward pass suffices.
        var literalChildren = [[Int32]](repeating: [], count: nodes.count)
        for (key, child) in edges { literalChildren[Int(key.parent)].append(child) }
        for i in nodes.indices.reversed() {
            var m = min(nodes[i].terminal, nodes[i].rest)
            for child in literalChildren[i] { m = min(m, nodes[Int(child)].minRank) }
            if nodes[i].capture >= 0 { m = min(m, nodes[Int(nodes[i].capture)].minRank) }
            nodes[i].minRank = m
        }
        literals = LiteralEdgeTable(edges)
    }

    /// The first route in match order whose pattern fits the segments; nil if none fits.
    public func match(_ segments: [String]) -> RouteMatch? {
        guard let rank = bestRank(segments) else { return nil }
        return RouteMatch(rule: routes[order[rank]], path: segments)
    }

    /// The match-order rank of the deciding route, without building a `RouteMatch`.
    public func bestRank(_ segments: [String]) -> Int? {
        var best = Int32.max
        let hashes = segments.map(LiteralEdgeTable.hash)
        nodes.withUnsafeBufferPointer { nodes in
            search(nodes, node: 0, depth: 0, segments: segments, hashes: hashes, best: &best)
        }
        return best == .max ? nil : Int(best)
    }

    private func search(
        _ nodes: UnsafeBufferPointer<Node>, node index: Int, depth: Int, segments: [String], hashes: [UInt64], best: inout Int32
    ) {
        let node = nodes[index]
        guard node.minRank < best else { return }
        if depth == segments.count {
            if node.terminal < best { best = node.terminal }
            return
        }
        if node.rest < best { best = node.rest }
        let next = literals.find(parent: Int32(index), hash: hashes[depth], text: segments[depth])
        if next >= 0 {
            search(nodes, node: Int(next), depth: depth + 1, segments: segments, hashes: hashes, best: &best)
        }
        if node.capture >= 0 {
            search(nodes, node: Int(node.capture), depth: depth + 1, segments: segments, hashes: hashes, best: &best)
        }
    }
}
