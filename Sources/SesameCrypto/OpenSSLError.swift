internal import COpenSSL

/// Turns libcrypto's thread-local error queue into a `CryptoError`, always leaving the queue empty.
///
/// Every failure path that follows a libcrypto call goes through one of these functions, so a stale
/// error never leaks into the next, unrelated operation on the same thread.
enum OpenSSLError {
    /// A `.library` error naming `operation` and the reasons libcrypto queued (oldest first).
    static func library(_ operation: String) -> CryptoError {
        .library(describe(operation))
    }

    /// An error of the caller's choosing (for example `.invalidKey`) built from `operation` and the
    /// queued reasons; the queue is cleared.
    static func wrap(_ operation: String, _ make: (String) -> CryptoError) -> CryptoError {
        make(describe(operation))
    }

    /// Drops whatever libcrypto queued: used where a failure is an expected answer (a bad signature).
    static func clear() {
        ERR_clear_error()
    }

    /// "operation: reason; reason" with at most a few reasons, then clears the queue.
    static func describe(_ operation: String) -> String {
        var reasons: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        while reasons.count < 4 {
            let code = ERR_get_error()
            if code == 0 { break }
            buffer.withUnsafeMutableBufferPointer { raw in
                guard let base = raw.baseAddress else { return }
                ERR_error_string_n(code, base, raw.count)
                reasons.append(String(cString: base))
            }
        }
        ERR_clear_error()
        return reasons.isEmpty ? operation : operation + ": " + reasons.joined(separator: "; ")
    }
}
