import DeeplinkerCore
/// Placeholder; filled by the daemon wiring.
public enum DeeplinkerDaemonPlaceholder {}
