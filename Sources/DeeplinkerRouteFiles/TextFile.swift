import Glibc

/// Reads small configuration files (route files, desktop entries) as text with plain `open`,
/// `fstat` and `read`: the size is checked on the open descriptor before anything is read, and
/// no user or group names are looked up (Foundation's file attributes read /etc/passwd and
/// /etc/group on every call, which showed up in the daemon's start-up).
public enum TextFile {
    /// Why a file could not be read.
    public enum Failure: Error, Equatable, Sendable {
        /// `open`, `fstat` or `read` failed with this `errno`.
        case unreadable(errno: Int32)
        /// A directory, socket or device instead of a regular file.
        case notARegularFile
        /// Larger than the limit the caller gave.
        case tooLarge(limit: Int)
        /// Not valid UTF-8.
        case notUTF8

        /// A short reason for messages ("No such file or directory", "the file is larger than …").
        public var reason: String {
            switch self {
            case .unreadable(let code): String(cString: strerror(code))
            case .notARegularFile: "not a regular file"
            case .tooLarge(let limit): "the file is larger than \(limit) bytes"
            case .notUTF8: "the file is not valid UTF-8"
            }
        }
    }

    /// The bytes of the regular file at `path`, refused when larger than `limit`.
    public static func bytes(atPath path: String, limit: Int) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(.unreadable(errno: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(errno: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notARegularFile) }
        guard Int(info.st_size) <= limit else { return .failure(.tooLarge(limit: limit)) }
        // Read to the end rather than trusting st_size, with one byte over the limit to notice growth.
        var buffer = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while true {
            if count == buffer.count {
                guard buffer.count <= limit else { return .failure(.tooLarge(limit: limit)) }
                buffer.append(contentsOf: repeatElement(0, count: min(buffer.count, limit + 1 - buffer.count)))
            }
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(errno: errno))
            }
            if got == 0 { break }
            count += got
        }
        guard count <= limit else { return .failure(.tooLarge(limit: limit)) }
        buffer.removeLast(buffer.count - count)
        return .success(buffer)
    }

    /// The file's text, which must be valid UTF-8.
    public static func text(atPath path: String, limit: Int) -> Result<String, Failure> {
        bytes(atPath: path, limit: limit).flatMap { bytes in
            String(validating: bytes, as: UTF8.self).map { .success($0) } ?? .failure(.notUTF8)
        }
    }

    /// The file's text with invalid UTF-8 repaired, or nil when it cannot be read; for desktop
    /// entries, whose readers treat a missing and an unreadable file alike.
    public static func lenientText(atPath path: String, limit: Int = 1 << 20) -> String? {
        guard case .success(let bytes) = bytes(atPath: path, limit: limit) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
