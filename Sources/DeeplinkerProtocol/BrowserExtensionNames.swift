/// The browser side of the contract (SPEC §1, §10): the native messaging host's name and the
/// extension's fixed ids, which the host manifests allow and nothing else.
public enum BrowserExtensionNames {
    /// The host's name, as the extension's `sendNativeMessage` names it.
    public static let hostName = "org.deeplinker.native_host"
    /// The extension's id in Chromium and Chrome: from the `key` in `Browser/extension/manifest.json`
    /// (the first 32 hex digits of the key's SHA-256, 0-f written a-p).
    public static let chromiumID = "idefdpeedpfnllcafaebolkhimemigmc"
    /// The extension's id in Firefox: `browser_specific_settings.gecko.id` in the same manifest.
    public static let firefoxID = "extension@deeplinker.org"
}
