extension Invocation {
    /// A copy moved to `status` with `detail`, stamped `now` and with its revision bumped.
    func moved(to status: InvocationStatus, detail: String, now: Int64) -> Invocation {
        var copy = self
        copy.status = status
        copy.detail = detail
        copy.updatedAt = now
        copy.revision += 1
        return copy
    }

    /// Whether the invocation is older than `ttl` at `now` (`nil` TTL: never).
    func isExpired(ttl: Duration?, now: Int64) -> Bool {
        guard let ttl else { return false }
        let (age, overflow) = now.subtractingReportingOverflow(receivedAt)
        return !overflow && age > ttl.engineMicroseconds
    }
}
