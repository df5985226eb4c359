// Small conversions between libcrypto's ASN.1 objects and Swift values, shared by the X.509 types.
internal import COpenSSL
internal import CShims

/// libcrypto helpers for the X.509 types. Pointers passed in are borrowed, never freed here.
enum X509Support {
    /// Dotted-decimal text of an ASN1_OBJECT, e.g. "2.5.4.3"; nil when libcrypto cannot render it.
    static func dottedOID(_ object: OpaquePointer?) -> String? {
        guard let object else { return nil }
        var buffer = [CChar](repeating: 0, count: 128)
        let needed = OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1)
        guard needed > 0 else { return nil }
        if Int(needed) >= buffer.count {
            // A very long OID: ask again with room for all of it.
            buffer = [CChar](repeating: 0, count: Int(needed) + 1)
            guard OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1) == needed else { return nil }
        }
        return String(decoding: buffer.prefix(Int(needed)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// libcrypto's short name for a known OID ("CN", "O"), nil when it has none.
    static func shortName(_ object: OpaquePointer?) -> String? {
        guard let object else { return nil }
        let nid = OBJ_obj2nid(object)
        guard nid != NID_undef, let name = OBJ_nid2sn(nid) else { return nil }
        return String(cString: name)
    }

    /// An ASN1_STRING's value as UTF-8 (ASN1_STRING_to_UTF8), nil when it is not a character string.
    static func utf8(_ string: UnsafePointer<ASN1_STRING>?) -> String? {
        guard let string else { return nil }
        var output: UnsafeMutablePointer<UInt8>? = nil
        let length = ASN1_STRING_to_UTF8(&output, string)
        guard length >= 0, let output else { return nil }
        defer { sesame_OPENSSL_free(output) }
        return String(decoding: UnsafeBufferPointer(start: output, count: Int(length)), as: UTF8.self)
    }

    /// The content octets of an ASN1_STRING (also ASN1_OCTET_STRING and ASN1_INTEGER magnitudes).
    static func bytes(_ string: UnsafePointer<ASN1_STRING>?) -> [UInt8] {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return [] }
        let length = ASN1_STRING_length(string)
        guard length > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(length)))
    }

    /// Every attribute of an X509_NAME in encoding order, whatever the RDN grouping. Values that are
    /// not character strings are given as "#" followed by the hex of their content octets.
    static func attributes(of name: OpaquePointer?) -> [DistinguishedNameAttribute] {
        guard let name else { return [] }
        let count = X509_NAME_entry_count(name)
        guard count > 0 else { return [] }
        var attributes: [DistinguishedNameAttribute] = []
        for index in 0..<count {
            guard let entry = X509_NAME_get_entry(name, index) else { continue }
            let object = X509_NAME_ENTRY_get_object(entry)
            let data = X509_NAME_ENTRY_get_data(entry)
            let value = utf8(data) ?? ("#" + hex(bytes(data)))
            attributes.append(
                DistinguishedNameAttribute(
                    oid: dottedOID(object) ?? "", shortName: shortName(object), value: value))
        }
        return attributes
    }

    /// Lowercase hex.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The most recent libcrypto error as text (or `fallback`), clearing this thread's error queue.
    static func takeError(_ fallback: String) -> String {
        let code = ERR_peek_last_error()
        defer { ERR_clear_error() }
        guard code != 0, let reason = ERR_reason_error_string(code) else { return fallback }
        return "\(fallback): \(String(cString: reason))"
    }
}
