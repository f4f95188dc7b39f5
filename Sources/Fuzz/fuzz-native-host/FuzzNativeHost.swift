import DeeplinkerCore

/// libFuzzer entry point: arbitrary bytes as what a browser writes to the one long-lived native
/// host of a session, a stream of many frames read in chunks whose size the input chooses
/// (1 to 256 bytes), through the frame decoder, the message parser, the policy and the reply;
/// every reply must render to JSON that parses again and fit in one frame, and the stream goes on
/// after every non-fatal error until the input ends or a fatal frame ends it.
private let claims = [
    NativeHostClaim(appID: "com.fuzz.A", domain: "a.example", verdict: "verified"),
    NativeHostClaim(appID: "com.fuzz.A", domain: "*.a.example", verdict: "verified"),
    NativeHostClaim(appID: "com.fuzz.B", domain: "b.example", verdict: "not-listed", detail: "x"),
    NativeHostClaim(appID: "com.fuzz.C", domain: "b.example", verdict: "verified"),
    NativeHostClaim(appID: "com.fuzz.D", domain: "bücher.example", verdict: "unreachable"),
    NativeHostClaim(appID: "com.fuzz.E", domain: "e.example", verdict: "approved", detail: "by the user"),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNativeHost(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let chunk = bytes.isEmpty ? 1 : Int(bytes[0]) + 1
    var decoder = NativeFrameDecoder()
    var offset = 0
    repeat {
        let end = min(bytes.count, offset + chunk)
        decoder.append(bytes[offset..<end])
        offset = end
        do {
            while let payload = try decoder.nextFrame() { answer(payload) }
        } catch {
            precondition(error.isFatal, "a decoder error must be fatal")
            check(.error(error))
            return 0
        }
    } while offset < bytes.count
    if (try? decoder.finish()) == nil { precondition(decoder.bufferedCount > 0) }
    // The same bytes as one payload, as if framed correctly.
    answer(bytes)
    return 0
}

private func answer(_ payload: [UInt8]) {
    do {
        switch try NativeHostRequest.parse(payload) {
        case .claims:
            check(NativeHostPolicy.claimsReply(claims, names: ["com.fuzz.A": "A \u{2028}\"app\""]))
        case .approve(let app, let domain), .revoke(let app, let domain):
            let changed = claims.map { $0.appID == app && $0.domain == domain ? NativeHostClaim(appID: app, domain: domain, verdict: "approved") : $0 }
            check(NativeHostPolicy.claimsReply(changed, names: [:]))
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
