/// RFC 3492 Punycode encoder, for turning Unicode host labels into their `xn--` form.
enum Punycode {
    private static let base: UInt32 = 36, tMin: UInt32 = 1, tMax: UInt32 = 26
    private static let skew: UInt32 = 38, damp: UInt32 = 700, initialBias: UInt32 = 72, initialN: UInt32 = 128

    /// Encodes a label (without the `xn--` prefix); nil on arithmetic overflow.
    static func encode(_ input: [Unicode.Scalar]) -> String? {
        let codes = input.map(\.value)
        var output: [UInt8] = codes.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = UInt32(output.count)
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = initialN, delta: UInt32 = 0, bias = initialBias
        while handled < UInt32(codes.count) {
            guard let m = codes.filter({ $0 >= n }).min() else { return nil }
            let (product, o1) = (m - n).multipliedReportingOverflow(by: handled + 1)
            let (sum, o2) = delta.addingReportingOverflow(product)
            if o1 || o2 { return nil }
            delta = sum
            n = m
            for c in codes {
                if c < n {
                    let (d, o) = delta.addingReportingOverflow(1)
                    if o { return nil }
                    delta = d
                }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func digit(_ d: UInt32) -> UInt8 {
        d < 26 ? UInt8(ascii: "a") + UInt8(d) : UInt8(ascii: "0") + UInt8(d - 26)
    }

    private static func adapt(_ delta: UInt32, _ numPoints: UInt32, _ first: Bool) -> UInt32 {
        var delta = first ? delta / damp : delta / 2
        delta += delta / numPoints
        var k: UInt32 = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
