/// Placeholder; filled by the DBusKit binding.
public enum DBusKitPlaceholder {}
