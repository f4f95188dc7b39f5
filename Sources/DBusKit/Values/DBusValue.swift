/// One D-Bus value of any type, with enough type information to marshal empty containers.
public indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// An array whose elements all have the single complete type `elementSignature`.
    case array(elementSignature: String, [DBusValue])
    /// A dictionary `a{kv}`; `keySignature` must be a basic type.
    case dictionary(keySignature: String, valueSignature: String, [DBusDictEntry])
    case structure([DBusValue])
    case variant(DBusValue)
}

/// One entry of a `DBusValue.dictionary`; order is kept as on the wire.
public struct DBusDictEntry: Sendable, Hashable {
    public var key: DBusValue
    public var value: DBusValue

    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}
