/// Known passkey providers and authenticators by AAGUID (data, not code).
///
/// The table lives in `AAGUIDRegistry+Data.swift`. Names are for display only (naming a passkey in
/// account settings); they carry no security meaning — an AAGUID is self-reported unless the
/// attestation is verified.
public enum AAGUIDRegistry {
    /// The provider name for an AAGUID, nil when unknown or not 16 bytes.
    public static func name(for aaguid: [UInt8]) -> String? {
        guard aaguid.count == 16 else { return nil }
        return names[format(aaguid)]
    }

    /// Canonical lowercase 8-4-4-4-12 form. Input that is not 16 bytes is returned as plain
    /// lowercase hex without dashes.
    public static func format(_ aaguid: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(aaguid.count * 2 + 4)
        for (index, byte) in aaguid.enumerated() {
            if aaguid.count == 16, index == 4 || index == 6 || index == 8 || index == 10 {
                out.append(UInt8(ascii: "-"))
            }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
