extension Duration {
    /// The duration in whole microseconds (the engine's time unit), saturating instead of trapping.
    var engineMicroseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000_000)
        if overflow2 { return seconds < 0 ? .min : .max }
        return sum
    }
}
