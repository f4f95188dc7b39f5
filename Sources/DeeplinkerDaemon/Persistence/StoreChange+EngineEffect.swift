import DeeplinkerCore

extension StoreChange {
    /// The store change an engine effect implies, `nil` for effects with nothing to persist.
    public init?(effect: EngineEffect) {
        switch effect {
        case .statusChanged(let invocation): self = .invocation(invocation)
        case .appStateChanged(let record): self = .appState(record)
        case .deliver, .launch, .raise: return nil
        }
    }
}
