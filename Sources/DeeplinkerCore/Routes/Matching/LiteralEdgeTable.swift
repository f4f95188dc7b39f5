/// The literal edges of the route trie in one open-addressing hash table: (parent node, segment
/// text) → child node. Hashing is FNV-1a over the UTF-8 bytes, cheaper than `Hasher` for short
/// path segments, and one table for all nodes keeps lookups cache-friendly at 100k routes.
struct LiteralEdgeTable: Sendable {
    struct Key: Hashable, Sendable {
        var parent: Int32
        var text: String
    }

    /// An edge; `child == -1` marks an empty slot.
    private struct Slot: Sendable {
        var hash: UInt64 = 0
        var parent: Int32 = -1
        var child: Int32 = -1
        var text: String = ""
    }

    private var slots: [Slot]
    private let mask: Int

    init(_ edges: [Key: Int32]) {
        var capacity = 16
        while capacity < edges.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        slots = Array(repeating: Slot(), count: capacity)
        for (key, child) in edges {
            let h = Self.combine(Self.hash(key.text), key.parent)
            var i = Int(truncatingIfNeeded: h) & mask
            while slots[i].child >= 0 { i = (i + 1) & mask }
            slots[i] = Slot(hash: h, parent: key.parent, child: child, text: key.text)
        }
    }

    /// FNV-1a over the UTF-8 bytes.
    static func hash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    private static func combine(_ textHash: UInt64, _ parent: Int32) -> UInt64 {
        var h = textHash ^ (UInt64(UInt32(bitPattern: parent)) &* 0x9E37_79B9_7F4A_7C15)
        h ^= h >> 29
        return h
    }

    /// The child of `parent` along the literal `text` (whose `hash` is given), or -1.
    func find(parent: Int32, hash textHash: UInt64, text: String) -> Int32 {
        let h = Self.combine(textHash, parent)
        var i = Int(truncatingIfNeeded: h) & mask
        return slots.withUnsafeBufferPointer { slots in
            while slots[i].child >= 0 {
                if slots[i].hash == h, slots[i].parent == parent, slots[i].text == text { return slots[i].child }
                i = (i + 1) & mask
            }
            return -1
        }
    }
}
