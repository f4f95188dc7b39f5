import DeeplinkerCore
import Glibc

/// The native host's loop (SPEC §10): reads framed messages from `input` until it ends, answers
/// each on `output` through `answer`, and stops at the first fatal frame. Only requests that parse
/// reach `answer` (and so the daemon); a bad one gets an error reply here.
struct NativeHostSession {
    /// How the loop ended.
    enum Ending: Equatable {
        /// The browser closed the input between messages.
        case endOfInput
        /// The browser closed its end of the output.
        case outputClosed
        /// A frame the host cannot read past (answered with an error reply first, when possible).
        case fatal(NativeMessageError)
        /// Reading failed (errno's text).
        case readFailed(String)
    }

    var input: Int32 = STDIN_FILENO
    var output: Int32 = STDOUT_FILENO
    var answer: (NativeHostRequest) async -> NativeHostReply

    func run() async -> Ending {
        var decoder = NativeFrameDecoder()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .readFailed(String(cString: strerror(errno)))
            }
            if count == 0 {
                do {
                    try decoder.finish()
                    return .endOfInput
                } catch {
                    return .fatal(error)
                }
            }
            decoder.append(chunk[0..<count])
            while true {
                let payload: [UInt8]
                do {
                    guard let next = try decoder.nextFrame() else { break }
                    payload = next
                } catch {
                    _ = write(NativeHostReply.error(error).framed())
                    return .fatal(error)
                }
                let reply: NativeHostReply
                do {
                    reply = await answer(try NativeHostRequest.parse(payload))
                } catch {
                    reply = .error(error)
                }
                guard write(reply.framed()) else { return .outputClosed }
            }
        }
    }

    /// Writes all of `bytes`; false when the browser has closed the pipe.
    private func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
