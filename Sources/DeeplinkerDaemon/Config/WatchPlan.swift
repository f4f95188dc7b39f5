/// Where to watch for each route folder (SPEC §5): the folder itself when it exists, else its
/// nearest existing ancestor, awaiting the name of the child that leads toward the folder. Pure:
/// the file system is asked only through `exists`.
struct WatchPlan: Equatable {
    /// What one watched directory is watched for.
    struct Watch: Equatable {
        /// It is a route folder: a change of any file in it counts.
        var isTarget = false
        /// Names of children that lead toward a missing route folder: their appearance counts.
        var awaiting: Set<String> = []
    }

    /// Watched directory → what it is watched for.
    let watches: [String: Watch]
    /// Each missing route folder → the ancestor it is awaited in.
    let missing: [String: String]

    /// The plan for `targets` (absolute paths; `//`, `.` and a trailing `/` are ignored). `/` is
    /// taken to exist: the last resort.
    init(targets: [String], exists: (String) -> Bool) {
        var watches: [String: Watch] = [:]
        var missing: [String: String] = [:]
        for target in targets {
            let components = Self.components(of: target)
            // The first component that does not exist; the watch goes on its parent.
            var depth = 0
            while depth < components.count, exists(Self.path(components[...depth])) { depth += 1 }
            let watched = Self.path(components[..<depth])
            if depth == components.count {
                watches[watched, default: Watch()].isTarget = true
            } else {
                watches[watched, default: Watch()].awaiting.insert(components[depth])
                missing[Self.path(components[...])] = watched
            }
        }
        self.watches = watches
        self.missing = missing
    }

    /// Whether a child `name` appearing in the watched directory `path` leads toward a missing
    /// route folder (anything else appearing there is unrelated).
    func leadsToward(_ name: String, in path: String) -> Bool {
        watches[path]?.awaiting.contains(name) == true
    }

    /// Whether `path` is a route folder watched directly.
    func isTarget(_ path: String) -> Bool {
        watches[path]?.isTarget == true
    }

    /// `path` as the plan names it: its components joined under `/`.
    static func normalized(_ path: String) -> String {
        Self.path(components(of: path)[...])
    }

    private static func components(of path: String) -> [String] {
        path.split(separator: "/").map(String.init).filter { $0 != "." }
    }

    private static func path(_ components: ArraySlice<String>) -> String {
        "/" + components.joined(separator: "/")
    }
}
