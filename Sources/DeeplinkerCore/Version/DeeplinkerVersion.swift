/// The one version of Deeplinker: `deeplinker --version`, `deeplinkerd --version` and the daemon's
/// `Version` property all print this (SPEC §7).
public enum DeeplinkerVersion {
    public static let current = "1.1.0"
}
