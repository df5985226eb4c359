/// Lowercase hexadecimal, two digits a byte: how ids, digests in keys and the Sign in with Apple
/// nonce claim are written, on the server and in the SDK alike.
public enum Hex {
    public static func lowercase(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
