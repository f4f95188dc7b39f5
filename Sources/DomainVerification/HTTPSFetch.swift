import CCurl
import DeeplinkerCore

/// Fetches an association file the way SPEC §10 says: HTTPS only, port 443, the system's trust
/// store (libcurl's default bundle, /etc/ssl/certs/ca-certificates.crt on Debian), no redirect
/// followed, at most 128 KiB and 10 s in all. libcurl, not URLSession: FoundationNetworking would
/// bring ICU into `deeplinker`. libcurl is loaded on the first fetch (see the CCurl shim).
public enum HTTPSFetch {
    /// The file at `url` (an `https://host/path` URL), or why not.
    public static func get(_ url: String, maximumBytes: Int = AssociationFile.maximumBytes, timeoutSeconds: Int = AssociationFile.timeoutSeconds)
        -> Result<[UInt8], FetchFailure>
    {
        let host = hostOf(url)
        guard url.hasPrefix("https://"), !host.isEmpty else { return .failure(.other("not an https URL: \(url)")) }
        if let error = ccurl_load() { return .failure(.other("libcurl could not be loaded: \(String(cString: error))")) }
        guard let curl = ccurl_easy_init() else { return .failure(.other("libcurl could not start a transfer")) }
        defer { ccurl_easy_cleanup(curl) }
        let sink = Sink(limit: maximumBytes)
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { buffer in
            ccurl_setopt_string(curl, CURLOPT_URL, url)
            ccurl_setopt_string(curl, CURLOPT_PROTOCOLS_STR, "https")
            ccurl_setopt_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "https")
            ccurl_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 0)
            ccurl_setopt_long(curl, CURLOPT_TIMEOUT, timeoutSeconds)
            ccurl_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
            ccurl_setopt_long(curl, CURLOPT_SSL_VERIFYPEER, 1)
            ccurl_setopt_long(curl, CURLOPT_SSL_VERIFYHOST, 2)
            ccurl_setopt_long(curl, CURLOPT_MAXFILESIZE, maximumBytes)
            ccurl_setopt_string(curl, CURLOPT_USERAGENT, "deeplinker-verify/\(DeeplinkerVersion.current)")
            ccurl_setopt_pointer(curl, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            ccurl_setopt_write_function(curl, writeBody)
            let context = Unmanaged.passUnretained(sink).toOpaque()
            ccurl_setopt_pointer(curl, CURLOPT_WRITEDATA, context)
            return withExtendedLifetime(sink) { ccurl_easy_perform(curl) }
        }
        let message = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).trimmingSuffixNewlines()
        let reason = message.isEmpty ? String(cString: ccurl_easy_strerror(code)) : message
        var status = 0
        var statusValue = 0
        if ccurl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &statusValue) == CURLE_OK { status = statusValue }
        if code == CURLE_OK || (code == CURLE_WRITE_ERROR && sink.overflowed) || code == CURLE_FILESIZE_EXCEEDED {
            if (300..<400).contains(status) {
                var location: UnsafeMutablePointer<CChar>?
                _ = ccurl_getinfo_string(curl, CURLINFO_REDIRECT_URL, &location)
                return .failure(.redirect(status: status, location: location.map { String(cString: $0) } ?? ""))
            }
            if status != 200 && status != 0 { return .failure(.httpStatus(status)) }
            if sink.overflowed || code == CURLE_FILESIZE_EXCEEDED { return .failure(.tooLarge(limit: maximumBytes)) }
            return .success(sink.bytes)
        }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST: return .failure(.dns(host: host, reason: reason))
        case CURLE_COULDNT_CONNECT: return .failure(.tcp(host: host, reason: reason))
        case CURLE_OPERATION_TIMEDOUT: return .failure(.timeout(seconds: timeoutSeconds))
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_USE_SSL_FAILED:
            return .failure(.tls(host: host, reason: reason))
        default:
            return .failure(.other("HTTP: \(reason)"))
        }
    }

    /// Why libcurl cannot be used here (libcurl.so.4 missing), nil when it can: nothing is
    /// recorded then, since no check was made.
    public static var unavailableReason: String? {
        ccurl_load().map { "libcurl could not be loaded (install libcurl4): \(String(cString: $0))" }
    }

    /// The host of an `https://host[:port]/…` URL.
    static func hostOf(_ url: String) -> String {
        guard url.hasPrefix("https://") else { return "" }
        let rest = url.dropFirst("https://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return String(authority.prefix { $0 != ":" })
    }
}

/// The body as it arrives, cut off (and the transfer ended) past the limit.
private final class Sink {
    let limit: Int
    var bytes: [UInt8] = []
    var overflowed = false
    init(limit: Int) { self.limit = limit }
}

/// libcurl's write callback: returning less than it was given ends the transfer.
private func writeBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard sink.bytes.count + length <= sink.limit else {
        sink.overflowed = true
        return 0
    }
    data.withMemoryRebound(to: UInt8.self, capacity: length) { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
    return length
}

extension String {
    fileprivate func trimmingSuffixNewlines() -> String {
        var s = self
        while s.last == "\n" || s.last == "\r" { s.removeLast() }
        return s
    }
}
