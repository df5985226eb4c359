/// RFC 9112 §3.2: a request with no `Host` (in HTTP/1.1), more than one, or an invalid one is
/// answered 400, never routed; otherwise two proxies could disagree on which tenant it is for.
enum HostHeader {
    /// Why `request` must be refused, or nil when its `Host` is acceptable.
    static func problem(_ request: HTTPRequest) -> String? {
        let values = request.headers.values(for: "Host")
        guard values.count <= 1 else { return "the request has more than one Host header" }
        guard let value = values.first else {
            return request.httpVersion == "HTTP/1.0" ? nil : "the request has no Host header"
        }
        return isValid(value) ? nil : "the Host header is not a host[:port]"
    }

    /// `uri-host [ ":" port ]` (RFC 9110 §7.2, RFC 3986 §3.2.2) with a non-empty host.
    static func isValid(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard !bytes.isEmpty, bytes.count <= 300 else { return false }
        var host: ArraySlice<UInt8>
        var port: ArraySlice<UInt8> = []
        if bytes[0] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = String(decoding: bytes[1..<close], as: UTF8.self)
            guard IPAddressRange.parseAddress(literal)?.count == 16, !literal.contains("%") else { return false }
            let rest = bytes[(close + 1)...]
            if let colon = rest.first {
                guard colon == UInt8(ascii: ":") else { return false }
                port = rest.dropFirst()
            }
            return isPort(port)
        }
        if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
            host = bytes[..<colon]
            port = bytes[(colon + 1)...]
            guard isPort(port) else { return false }
        } else {
            host = bytes[...]
        }
        return !host.isEmpty && isRegisteredName(host)
    }

    /// `*DIGIT` (empty allowed, as the grammar has it), at most 65535.
    private static func isPort(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count <= 5, bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return false
        }
        return bytes.isEmpty || Int(String(decoding: bytes, as: UTF8.self)).map { $0 <= 65_535 } == true
    }

    /// `reg-name` / IPv4address: unreserved, sub-delims and pct-encoded octets only.
    private static func isRegisteredName(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
                index += 3
                continue
            }
            guard isUnreserved(byte) || isSubDelimiter(byte) else { return false }
            index += 1
        }
        return true
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~")
    }

    private static func isSubDelimiter(_ byte: UInt8) -> Bool {
        "!$&'()*+,;=".utf8.contains(byte)
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
