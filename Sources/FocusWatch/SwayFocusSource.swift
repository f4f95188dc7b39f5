import FoundationEssentials

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
            onChange(try Self.decode(Node.self, tree).focusedLeaf()?.window)
            try send(Self.subscribe, #"["window"]"#)
            _ = try receive()
            while true {
                let (type, payload) = try receive()
                guard type == Self.windowEvent, let event = try? Self.decode(WindowEvent.self, payload),
                      let container = event.container else { continue }
                switch event.change {
                case "focus": onChange(container.window)
                case "close" where container.focused == true: onChange(nil)
                default: continue
                }
            }
        } catch let error as FocusWatchError {
            return error
        } catch {
            return FocusWatchError("sway at \(socketPath): \(error)")
        }
    }

    /// A node of sway's tree (`GET_TREE`, the `container` of window events): the fields used here.
    struct Node: Decodable {
        var focused: Bool?
        var pid: Int?
        var appID: String?
        var windowProperties: WindowProperties?
        var nodes: [Node]?
        var floatingNodes: [Node]?

        enum CodingKeys: String, CodingKey {
            case focused, pid, nodes
            case appID = "app_id"
            case windowProperties = "window_properties"
            case floatingNodes = "floating_nodes"
        }

        /// The focused window below (or at) this node.
        func focusedLeaf() -> Node? {
            if focused == true, pid != nil { return self }
            for child in (nodes ?? []) + (floatingNodes ?? []) {
                if let found = child.focusedLeaf() { return found }
            }
            return nil
        }

        /// Its app id (Wayland), pid and XWayland class.
        var window: FocusedWindow {
            var window = FocusedWindow()
            if let appID, !appID.isEmpty { window.applicationID = appID }
            if let pid, pid > 0, pid <= Int(Int32.max) { window.pid = Int32(pid) }
            if let windowProperties { window.wmClass = [windowProperties.instance ?? "", windowProperties.class ?? ""] }
            return window
        }
    }

    /// XWayland's `WM_CLASS`.
    struct WindowProperties: Decodable {
        var `class`: String?
        var instance: String?
    }

    /// A `window` event.
    struct WindowEvent: Decodable {
        var change: String
        var container: Node?
    }

    static func decode<T: Decodable>(_ type: T.Type, _ payload: [UInt8]) throws -> T {
        try JSONDecoder().decode(type, from: Data(payload))
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
