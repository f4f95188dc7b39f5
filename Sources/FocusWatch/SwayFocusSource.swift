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
            onChange(try Self.focusedWindow(inTree: tree))
            try send(Self.subscribe, #"["window"]"#)
            _ = try receive()
            while true {
                let (type, payload) = try receive()
                guard type == Self.windowEvent, let change = Self.windowChange(payload) else { continue }
                switch change {
                case .focused(let window): onChange(window)
                case .closed: onChange(nil)
                }
            }
        } catch let error as FocusWatchError {
            return error
        } catch {
            return FocusWatchError("sway at \(socketPath): \(error)")
        }
    }

    /// The parts of a sway container (a `GET_TREE` node, a window event's `container`) used here;
    /// decoded with `JSONDecoder`, which FoundationEssentials has (`JSONSerialization` would link
    /// ICU into the CLI).
    struct Node: Decodable {
        struct Properties: Decodable {
            var instance: String?
            var `class`: String?
        }

        var focused: Bool?
        var pid: Int?
        var app_id: String?
        var window_properties: Properties?
        var nodes: [Node]?
        var floating_nodes: [Node]?

        /// The focused window at or under this node.
        var focusedWindow: Node? {
            if focused == true, pid != nil { return self }
            for child in (nodes ?? []) + (floating_nodes ?? []) {
                if let found = child.focusedWindow { return found }
            }
            return nil
        }

        /// Its app id (Wayland), pid and XWayland class.
        var window: FocusedWindow {
            var window = FocusedWindow()
            if let id = app_id, !id.isEmpty { window.applicationID = id }
            if let pid, pid > 0, pid <= Int(Int32.max) { window.pid = Int32(pid) }
            if let properties = window_properties { window.wmClass = [properties.instance ?? "", properties.class ?? ""] }
            return window
        }
    }

    struct WindowEvent: Decodable {
        var change: String?
        var container: Node?
    }

    /// The focused window of a `GET_TREE` reply (nil when none is).
    static func focusedWindow(inTree payload: [UInt8]) throws -> FocusedWindow? {
        try JSONDecoder().decode(Node.self, from: Data(payload)).focusedWindow?.window
    }

    /// What a window event means for the focus.
    enum Change: Equatable {
        case focused(FocusedWindow)
        /// The focused window closed.
        case closed
    }

    /// The focus change a window event makes; nil for every other event.
    static func windowChange(_ payload: [UInt8]) -> Change? {
        guard let event = try? JSONDecoder().decode(WindowEvent.self, from: Data(payload)), let container = event.container else { return nil }
        switch event.change {
        case "focus": return .focused(container.window)
        case "close" where container.focused == true: return .closed
        default: return nil
        }
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
