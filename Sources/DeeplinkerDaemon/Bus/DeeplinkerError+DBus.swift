import DBusKit
import DeeplinkerCore

/// The one place where core errors become D-Bus errors (`org.deeplinker.Error.<Name>`).
extension DeeplinkerError {
    public var dbusName: String { DeeplinkerAPI.errorPrefix + name }

    public var dbusError: DBusError { DBusError(name: dbusName, message: message) }
}
