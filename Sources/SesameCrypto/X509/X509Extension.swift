/// One certificate extension, raw: `value` is the content of extnValue (the DER inside the OCTET STRING).
public struct X509Extension: Sendable, Hashable {
    /// The extnID as a dotted OID, e.g. "2.5.29.19".
    public var oid: String
    /// The critical flag.
    public var critical: Bool
    /// The DER bytes carried inside extnValue.
    public var value: [UInt8]

    /// An extension from its parts.
    public init(oid: String, critical: Bool, value: [UInt8]) {
        self.oid = oid
        self.critical = critical
        self.value = value
    }
}
