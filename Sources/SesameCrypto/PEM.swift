internal import COpenSSL
internal import CShims

/// PEM framing (RFC 7468) for keys: writing is plain text around strict base64; reading goes
/// through libcrypto's PEM_read_bio, then the label is checked and encrypted blocks are refused.
enum PEM {
    /// `-----BEGIN label-----`, base64 in 64-character lines, `-----END label-----`.
    static func encode(_ der: [UInt8], label: String) -> String {
        var body = ""
        var line = Substring()
        let text = Base64.encode(der, alphabet: .standard)
        let padded = text + String(repeating: "=", count: (4 - text.count % 4) % 4)
        var rest = Substring(padded)
        while !rest.isEmpty {
            line = rest.prefix(64)
            rest = rest.dropFirst(64)
            body += line + "\n"
        }
        return "-----BEGIN \(label)-----\n\(body)-----END \(label)-----\n"
    }

    /// The DER inside the first PEM block of `text`, with its label. Throws `invalidKey` when there
    /// is no readable block or when it carries headers (encryption).
    static func decode(_ text: String) throws -> (label: String, der: [UInt8]) {
        let bio = try MemoryBIO(reading: Array(text.utf8))
        var name: UnsafeMutablePointer<CChar>? = nil
        var header: UnsafeMutablePointer<CChar>? = nil
        var data: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        let ok = PEM_read_bio(bio.pointer, &name, &header, &data, &length)
        defer {
            if let name { sesame_OPENSSL_free(name) }
            if let header { sesame_OPENSSL_free(header) }
            if let data {
                OPENSSL_cleanse(data, max(length, 0))
                sesame_OPENSSL_free(data)
            }
        }
        guard ok == 1, let name, let data, length > 0 else {
            throw OpenSSLError.wrap("no PEM block") { .invalidKey($0) }
        }
        if let header, header.pointee != 0 {
            throw CryptoError.invalidKey("encrypted or annotated PEM blocks are not supported")
        }
        let der = Array(UnsafeBufferPointer(start: data, count: length))
        return (String(cString: name), der)
    }
}
