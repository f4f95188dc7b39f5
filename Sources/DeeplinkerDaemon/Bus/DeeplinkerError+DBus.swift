import DBusKit
import DeeplinkerCore
import DeeplinkerProtocol

/// The one place where core errors become D-Bus errors (`org.deeplinker.Error.<Name>`).
extension DeeplinkerError {
    public var dbusName: String { DeeplinkerBus.errorName(name) }

    public var dbusError: DBusError { DBusError(name: dbusName, message: message) }
}
