/// Splits a byte stream from the browser into native messages. Pure: the host appends what it
/// read and takes out whole payloads; a length over the limit is refused as soon as its 4 bytes
/// are in, before any of its payload is kept.
public struct NativeFrameDecoder: Sendable {
    /// The largest payload accepted.
    public let limit: Int
    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` start.
    private var start = 0

    public init(limit: Int = NativeMessageFraming.maxIncoming) {
        self.limit = limit
    }

    /// Bytes received and not yet taken out as messages.
    public var bufferedCount: Int { buffer.count - start }

    /// Adds bytes read from the browser.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole payload, or nil when more bytes are needed. Throws `frameTooLarge` for a
    /// length over the limit (the stream cannot be read on after that).
    public mutating func nextFrame() throws(NativeMessageError) -> [UInt8]? {
        let available = buffer.count - start
        guard available >= NativeMessageFraming.headerSize else { return nil }
        let length = NativeMessageFraming.length(ofHeader: buffer[start..<(start + NativeMessageFraming.headerSize)])
        guard length <= limit else { throw .frameTooLarge(length: length, limit: limit) }
        guard available - NativeMessageFraming.headerSize >= length else {
            buffer.reserveCapacity(start + NativeMessageFraming.headerSize + length)
            return nil
        }
        let payloadStart = start + NativeMessageFraming.headerSize
        let payload = Array(buffer[payloadStart..<(payloadStart + length)])
        start = payloadStart + length
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            start = 0
        }
        return payload
    }

    /// Called at the end of the input: throws `truncatedFrame` when it ended inside a message.
    public func finish() throws(NativeMessageError) {
        let available = buffer.count - start
        guard available > 0 else { return }
        guard available >= NativeMessageFraming.headerSize else {
            throw .truncatedFrame(received: available, expected: NativeMessageFraming.headerSize)
        }
        let length = NativeMessageFraming.length(ofHeader: buffer[start..<(start + NativeMessageFraming.headerSize)])
        throw .truncatedFrame(received: available - NativeMessageFraming.headerSize, expected: length)
    }
}
