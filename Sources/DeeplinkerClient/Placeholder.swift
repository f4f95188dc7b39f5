/// Placeholder; filled by the client library issue.
public enum DeeplinkerClientPlaceholder {}
