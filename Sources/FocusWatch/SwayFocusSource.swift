import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Follows sway's focus through its IPC socket (`SWAYSOCK`, the i3 protocol): the focused
/// container from `GET_TREE` at start, then `subscribe ["window"]` events, no polling.
public final class SwayFocusSource: @unchecked Sendable {
    public let socketPath: String
    private let fd: Int32

    static let magic = Array("i3-ipc".utf8)
    static let getTree: UInt32 = 4
    static let subscribe: UInt32 = 2
    static let windowEvent: UInt32 = 0x8000_0003

    public init(socketPath: String?) throws(FocusWatchError) {
        guard let path = socketPath ?? ProcessInfo.processInfo.environment["SWAYSOCK"], !path.isEmpty else {
            throw FocusWatchError("no sway IPC socket: SWAYSOCK is not set")
        }
        self.socketPath = path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FocusWatchError("cannot make a socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw FocusWatchError("the sway socket path is too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw FocusWatchError("cannot connect to sway at \(path): \(reason)")
        }
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    /// Blocks, calling `onChange` with the focused window at once and at every focus change,
    /// until sway goes away; returns why.
    public func run(_ onChange: (FocusedWindow?) -> Void) -> FocusWatchError {
        do {
            try send(Self.getTree, "")
            let (_, tree) = try receive()
            onChange(Self.focused(in: try Self.json(tree)).map(Self.window))
            try send(Self.subscribe, #"["window"]"#)
            _ = try receive()
            while true {
                let (type, payload) = try receive()
                guard type == Self.windowEvent, let event = try Self.json(payload) as? [String: Any],
                      let container = event["container"] as? [String: Any] else { continue }
                switch event["change"] as? String {
                case "focus": onChange(Self.window(container))
                case "close" where container["focused"] as? Bool == true: onChange(nil)
                default: continue
                }
            }
        } catch let error as FocusWatchError {
            return error
        } catch {
            return FocusWatchError("sway at \(socketPath): \(error)")
        }
    }

    /// The focused container of a `GET_TREE` reply.
    static func focused(in node: Any) -> [String: Any]? {
        guard let node = node as? [String: Any] else { return nil }
        if node["focused"] as? Bool == true, node["pid"] != nil { return node }
        for key in ["nodes", "floating_nodes"] {
            for child in node[key] as? [Any] ?? [] {
                if let found = focused(in: child) { return found }
            }
        }
        return nil
    }

    /// A container's app id (Wayland), pid and XWayland class.
    static func window(_ container: [String: Any]) -> FocusedWindow {
        var window = FocusedWindow()
        if let id = container["app_id"] as? String, !id.isEmpty { window.applicationID = id }
        if let pid = container["pid"] as? Int, pid > 0, pid <= Int(Int32.max) { window.pid = Int32(pid) }
        if let properties = container["window_properties"] as? [String: Any] {
            window.wmClass = [properties["instance"] as? String ?? "", properties["class"] as? String ?? ""]
        }
        return window
    }

    static func json(_ payload: [UInt8]) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(payload))
    }

    private func send(_ type: UInt32, _ payload: String) throws {
        var message = Self.magic
        withUnsafeBytes(of: UInt32(payload.utf8.count)) { message += $0 }
        withUnsafeBytes(of: type) { message += $0 }
        message += Array(payload.utf8)
        var offset = 0
        while offset < message.count {
            let n = message[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw FocusWatchError("sway at \(socketPath) went away") }
            offset += n
        }
    }

    private func receive() throws -> (UInt32, [UInt8]) {
        let header = try read(14)
        guard Array(header[0..<6]) == Self.magic else { throw FocusWatchError("sway at \(socketPath) sent a malformed message") }
        let length = header[6..<10].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        let type = header[10..<14].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        return (type, try read(Int(length)))
    }

    private func read(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let n = bytes[offset...].withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw FocusWatchError("sway at \(socketPath) went away") }
            offset += n
        }
        return bytes
    }
}
