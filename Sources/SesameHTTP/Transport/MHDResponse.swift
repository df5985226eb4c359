internal import CMicroHTTPD

/// Owns one `MHD_Response` (its body copied in) and destroys it in `deinit`; libmicrohttpd keeps its own
/// reference while the response is queued.
final class MHDResponse {
    let pointer: OpaquePointer

    init(body: [UInt8]) throws(MicroHTTPDError) {
        let created = body.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(
                raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress),
                .RESPMEM_MUST_COPY)
        }
        guard let created else { throw .response }
        pointer = created
    }

    deinit { MHD_destroy_response(pointer) }

    /// Adds a header; a refusal is an error, never a response sent without it (a missing
    /// `Content-Security-Policy` or `Set-Cookie` would change what the page does).
    func add(header name: String, value: String) throws(MicroHTTPDError) {
        try MicroHTTPDError.check(MHD_add_response_header(pointer, name, value), .header(name))
    }

    /// False for fields the server controls (framing), for names or values with CR, LF or NUL, and
    /// for an empty value, which libmicrohttpd 0.9.75 does not send (the field is left out).
    static func isSettable(_ name: String, _ value: String) -> Bool {
        if name.isEmpty || value.isEmpty || reserved.contains(where: { HTTPHeaders.sameName(name, $0) }) {
            return false
        }
        let bad: (UInt8) -> Bool = { $0 == 13 || $0 == 10 || $0 == 0 }
        return !name.utf8.contains(where: bad) && !value.utf8.contains(where: bad)
    }

    private static let reserved = ["content-length", "transfer-encoding", "connection"]
}
