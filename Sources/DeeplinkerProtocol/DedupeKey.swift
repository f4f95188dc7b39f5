/// The de-duplication key of an invocation (SPEC §3): the invocation kind and its input, or for a
/// notification with an `id-key` value, that value. Parts are joined with U+001F, which no input
/// can hold unescaped in a way that makes two different invocations collide on the kind.
public enum DedupeKey {
    static let separator = "\u{1F}"

    /// Kind (`url`, `notification`, `shortcut`, `activity`, `launch`) and the raw input.
    public static func invocation(kind: String, input: String) -> String {
        kind + separator + input
    }

    /// A notification identified by the value at its app's `notifications.id-key`.
    public static func notification(id: String) -> String {
        "notification-id" + separator + id
    }

    /// The input of an activity: its type and its webpage URL.
    public static func activityInput(type: String, webpageURL: String) -> String {
        type + separator + webpageURL
    }
}
