/// One attribute of a distinguished name, e.g. ("2.5.4.3", "CN", "Yubico U2F EE Serial 1").
public struct DistinguishedNameAttribute: Sendable, Hashable {
    /// The attribute type's dotted OID, e.g. "2.5.4.3".
    public var oid: String
    /// libcrypto's short name for the type ("CN", "O"), nil when it has none.
    public var shortName: String?
    /// The value as UTF-8; a value that is not a character string is "#" and the hex of its octets.
    public var value: String

    /// An attribute from its parts.
    public init(oid: String, shortName: String?, value: String) {
        self.oid = oid
        self.shortName = shortName
        self.value = value
    }
}

/// A subject or issuer name: its attributes in encoding order (multi-valued RDNs flattened).
public struct DistinguishedName: Sendable, Hashable, CustomStringConvertible {
    /// Every attribute, in the order the certificate encodes them.
    public var attributes: [DistinguishedNameAttribute]

    /// A name from its attributes.
    public init(attributes: [DistinguishedNameAttribute]) { self.attributes = attributes }

    /// Values of every attribute with this OID ("2.5.4.11" = OU) or short name ("OU").
    public func values(of oidOrShortName: String) -> [String] {
        attributes.filter { $0.oid == oidOrShortName || $0.shortName == oidOrShortName }.map(\.value)
    }

    /// RFC 4514-style one-line form, e.g. "CN=Yubico U2F EE Serial 1, O=Yubico".
    public var description: String {
        attributes.map { "\($0.shortName ?? $0.oid)=\($0.value)" }.joined(separator: ", ")
    }
}
