import FoundationEssentials
import Glibc

/// Whether a session bus can be found the way libdbus looks for one.
enum SessionBus {
    static func isAvailable(_ environment: [String: String]) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            var info = stat()
            return stat(runtime + "/bus", &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
        }
        return false
    }
}
