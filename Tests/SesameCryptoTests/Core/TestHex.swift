/// Hex helpers for the core crypto tests.
enum TestHex {
    /// Bytes from a hex string (whitespace ignored); an odd or invalid string gives an empty array,
    /// which makes the test using it fail rather than crash.
    static func bytes(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace })
        guard digits.count % 2 == 0 else { return [] }
        var out: [UInt8] = []
        var index = 0
        while index + 1 < digits.count {
            guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else { return [] }
            out.append(byte)
            index += 2
        }
        return out
    }

    /// Lower-case hex of `bytes`.
    static func string(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
