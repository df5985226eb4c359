internal import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one gate between libmicrohttpd's answers and Swift, as `OpenSSLError` is for libcrypto and
/// `SQLiteError`'s mapping for SQLite: every call that can refuse goes through `check`, or returns
/// an optional that the caller turns into one of these, so no refusal is dropped on the way.
enum MicroHTTPDError: Error, Equatable, CustomStringConvertible {
    /// `MHD_start_daemon` returned no daemon; `reason` is the system's word for `errno` when it set one.
    case start(address: String, port: Int, reason: String)
    /// `MHD_create_response_from_buffer` returned no response (out of memory).
    case response
    /// `MHD_add_response_header` refused a header (out of memory, or a name or value it will not send).
    case header(String)
    /// `MHD_queue_response` refused the response (the connection is closed instead).
    case queue(status: Int)

    var description: String {
        switch self {
        case .start(let address, let port, let reason):
            "libmicrohttpd could not listen on \(address):\(port): \(reason)"
        case .response: "libmicrohttpd could not make a response"
        case .header(let name): "libmicrohttpd refused the header \(name)"
        case .queue(let status): "libmicrohttpd refused to queue a \(status) response"
        }
    }

    /// Throws `error` unless libmicrohttpd answered yes.
    static func check(_ result: MHD_Result, _ error: @autoclosure () -> MicroHTTPDError) throws(MicroHTTPDError) {
        guard result == .YES else { throw error() }
    }

    /// Why `MHD_start_daemon` failed, from `errno` (0: libmicrohttpd said nothing; the likely causes).
    static func startReason(errno code: Int32) -> String {
        guard code != 0, let text = strerror(code) else {
            return "the address is in use or not local, or the TLS key or certificate is not valid"
        }
        return String(cString: text)
    }
}
