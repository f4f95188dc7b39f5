import Glibc
import TaskThreads

/// The terminal while `top` runs: input without echo or line buffering (signals still work),
/// the alternate screen, the cursor hidden; `restore()` undoes all of it, once, whichever way
/// `top` ends. Plain termios and ANSI sequences.
final class TopTerminal: Sendable {
    private let original: termios
    /// Whether `restore()` ran.
    private let restored = LockedValue(false)

    init() {
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        original = saved
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    /// Leaves the alternate screen, shows the cursor and puts the terminal's modes back.
    func restore() {
        guard restored.withLock({ done in defer { done = true }; return !done }) else { return }
        write("\u{1B}[?25h\u{1B}[?1049l")
        var saved = original
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }

    /// Columns and rows of the terminal (80x24 when it cannot tell).
    static func size() -> (width: Int, height: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Draws `lines` from the top-left corner, clearing what is left of each line and below.
    func draw(_ lines: [String]) {
        write("\u{1B}[H" + lines.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J")
    }

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if n <= 0 { if errno == EINTR { continue } else { return } }
            offset += n
        }
    }

    /// Reads keys on a thread of its own until standard input ends.
    static func readKeys(_ deliver: @escaping @Sendable ([TopKey]) -> Void) {
        NamedThread.start(name: "top-keys") {
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let n = read(STDIN_FILENO, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                deliver(TopKey.parse(Array(buffer[0..<n])))
            }
        }
    }
}
