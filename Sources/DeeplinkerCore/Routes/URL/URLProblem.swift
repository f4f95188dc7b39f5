/// A reason a URL is invalid, before it is wrapped in `DeeplinkerError.invalidURL`.
struct URLProblem: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
