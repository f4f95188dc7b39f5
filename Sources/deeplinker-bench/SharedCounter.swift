import Synchronization

/// A counter that hands out 0, 1, 2, … to any number of tasks.
final class SharedCounter: Sendable {
    private let value: Atomic<Int>

    init(startingAt start: Int = 0) {
        value = Atomic(start)
    }

    /// The next number.
    func next() -> Int {
        value.wrappingAdd(1, ordering: .relaxed).oldValue
    }
}
