/// The Android key attestation extension (OID 1.3.6.1.4.1.11129.2.1.17), KeyDescription.
public struct AndroidKeyDescription: Sendable, Hashable {
    /// attestationVersion (e.g. 3, 4, 100, 200, 300).
    public var attestationVersion: Int
    /// attestationSecurityLevel: 0 Software, 1 TrustedEnvironment, 2 StrongBox.
    public var attestationSecurityLevel: Int
    /// keymasterVersion / keyMintVersion.
    public var keymasterVersion: Int
    /// keymasterSecurityLevel / keyMintSecurityLevel.
    public var keymasterSecurityLevel: Int
    /// attestationChallenge: for WebAuthn, the clientDataHash.
    public var attestationChallenge: [UInt8]
    /// uniqueId.
    public var uniqueID: [UInt8]
    /// softwareEnforced.
    public var softwareEnforced: AndroidAuthorizationList
    /// teeEnforced / hardwareEnforced.
    public var teeEnforced: AndroidAuthorizationList

    /// A description from its parts.
    public init(
        attestationVersion: Int, attestationSecurityLevel: Int, keymasterVersion: Int, keymasterSecurityLevel: Int,
        attestationChallenge: [UInt8], uniqueID: [UInt8], softwareEnforced: AndroidAuthorizationList,
        teeEnforced: AndroidAuthorizationList
    ) {
        self.attestationVersion = attestationVersion
        self.attestationSecurityLevel = attestationSecurityLevel
        self.keymasterVersion = keymasterVersion
        self.keymasterSecurityLevel = keymasterSecurityLevel
        self.attestationChallenge = attestationChallenge
        self.uniqueID = uniqueID
        self.softwareEnforced = softwareEnforced
        self.teeEnforced = teeEnforced
    }

    /// The extension's OID.
    static let oid = "1.3.6.1.4.1.11129.2.1.17"

    /// Parses the DER KeyDescription (the extension's extnValue contents). Strict: exactly one
    /// SEQUENCE of the eight fields, nothing after it.
    init(der: [UInt8]) throws(CryptoError) {
        var top = try DERReader(der)
        let sequence = try top.readElement(.sequence)
        try top.expectEnd("KeyDescription")
        var fields = try sequence.contentsReader()
        let attestationVersion = try fields.readInteger()
        let attestationSecurityLevel = try fields.readInteger(tag: .enumerated)
        let keymasterVersion = try fields.readInteger()
        let keymasterSecurityLevel = try fields.readInteger(tag: .enumerated)
        let challenge = try fields.readOctetString()
        let uniqueID = try fields.readOctetString()
        let software = try AndroidAuthorizationList(parsing: fields.readElement(.sequence))
        let tee = try AndroidAuthorizationList(parsing: fields.readElement(.sequence))
        try fields.expectEnd("KeyDescription's teeEnforced")
        self.init(
            attestationVersion: attestationVersion, attestationSecurityLevel: attestationSecurityLevel,
            keymasterVersion: keymasterVersion, keymasterSecurityLevel: keymasterSecurityLevel,
            attestationChallenge: challenge, uniqueID: uniqueID, softwareEnforced: software, teeEnforced: tee)
    }
}
