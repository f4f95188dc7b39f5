import DeeplinkerCore

/// libFuzzer entry point: arbitrary bytes as what a browser writes to the native host, split into
/// two reads at a point the input chooses, through the frame decoder, the message parser, the
/// policy and the reply; every reply must render to JSON that parses again and fit in one frame.
private let claims = [
    NativeHostClaim(appID: "com.fuzz.A", domain: "a.example", verdict: "verified"),
    NativeHostClaim(appID: "com.fuzz.A", domain: "*.a.example", verdict: "verified"),
    NativeHostClaim(appID: "com.fuzz.B", domain: "b.example", verdict: "not-listed", detail: "x"),
    NativeHostClaim(appID: "com.fuzz.C", domain: "b.example", verdict: "verified"),
    NativeHostClaim(appID: "com.fuzz.D", domain: "bücher.example", verdict: "unreachable"),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNativeHost(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var decoder = NativeFrameDecoder()
    for part in [bytes[..<split], bytes[split...]] {
        decoder.append(part)
        do {
            while let payload = try decoder.nextFrame() { answer(payload) }
        } catch {
            precondition(error.isFatal, "a decoder error must be fatal")
            check(.error(error))
            return 0
        }
    }
    if (try? decoder.finish()) == nil { precondition(decoder.bufferedCount > 0) }
    // The same bytes as one payload, as if framed correctly.
    answer(bytes)
    return 0
}

private func answer(_ payload: [UInt8]) {
    do {
        switch try NativeHostRequest.parse(payload) {
        case .claims:
            check(.claims(NativeHostPolicy.verifiedClaims(claims, names: ["com.fuzz.A": "A \u{2028}\"app\""])))
        case .open(let url, _):
            switch NativeHostPolicy.decide(url: url, claims: claims) {
            case .open(let app): check(.handled(appID: app, invocationID: url))
            case .refuse(let reason, let detail): check(.notHandled(reason: reason, detail: detail))
            }
        }
    } catch {
        precondition(!error.isFatal, "a message error must not be fatal")
        check(.error(error))
    }
}

private func check(_ reply: NativeHostReply) {
    let framed = reply.framed()
    precondition(framed.count - NativeMessageFraming.headerSize <= NativeMessageFraming.maxOutgoing)
    precondition(NativeMessageFraming.length(ofHeader: framed[0..<4]) == framed.count - 4)
    guard let parsed = try? JSONParser.parse(bytes: Array(framed.dropFirst(4)), maxBytes: NativeMessageFraming.maxOutgoing) else {
        preconditionFailure("a reply is not valid JSON")
    }
    if framed.count - 4 == reply.payload.count { precondition(parsed == reply.json, "a reply does not parse back to itself") }
}
