// PUBLIC SURFACE OF SesameCrypto's X.509 support — stubs to be replaced (one main type per file).
import Foundation

/// One attribute of a distinguished name, e.g. ("2.5.4.3", "CN", "Yubico U2F EE Serial 1").
public struct DistinguishedNameAttribute: Sendable, Hashable {
    public var oid: String
    public var shortName: String?
    public var value: String
    public init(oid: String, shortName: String?, value: String) { self.oid = oid; self.shortName = shortName; self.value = value }
}

/// A subject or issuer name.
public struct DistinguishedName: Sendable, Hashable, CustomStringConvertible {
    public var attributes: [DistinguishedNameAttribute]
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

/// basicConstraints.
public struct BasicConstraints: Sendable, Hashable {
    public var isCA: Bool
    public var pathLength: Int?
    public init(isCA: Bool, pathLength: Int?) { self.isCA = isCA; self.pathLength = pathLength }
}

/// One extension, raw: `value` is the content of extnValue (the DER inside the OCTET STRING).
public struct X509Extension: Sendable, Hashable {
    public var oid: String
    public var critical: Bool
    public var value: [UInt8]
    public init(oid: String, critical: Bool, value: [UInt8]) { self.oid = oid; self.critical = critical; self.value = value }
}

/// TPM device attributes from a TPM AIK certificate's subjectAlternativeName directoryName
/// (TCG EK Credential Profile: 2.23.133.2.1 manufacturer, .2 model, .3 version).
public struct TPMDeviceAttributes: Sendable, Hashable {
    public var manufacturer: String
    public var model: String
    public var version: String
    public init(manufacturer: String, model: String, version: String) { self.manufacturer = manufacturer; self.model = model; self.version = version }
}

/// The part of an Android Keystore AuthorizationList that WebAuthn checks.
public struct AndroidAuthorizationList: Sendable, Hashable {
    /// [1] purpose (KM_PURPOSE_SIGN = 2), when present.
    public var purpose: [Int]?
    /// [702] origin (KM_ORIGIN_GENERATED = 0), when present.
    public var origin: Int?
    /// [600] allApplications present.
    public var allApplications: Bool
    public init(purpose: [Int]?, origin: Int?, allApplications: Bool) { self.purpose = purpose; self.origin = origin; self.allApplications = allApplications }
}

/// The Android key attestation extension (OID 1.3.6.1.4.1.11129.2.1.17), KeyDescription.
public struct AndroidKeyDescription: Sendable, Hashable {
    public var attestationVersion: Int
    public var attestationSecurityLevel: Int
    public var keymasterVersion: Int
    public var keymasterSecurityLevel: Int
    public var attestationChallenge: [UInt8]
    public var uniqueID: [UInt8]
    public var softwareEnforced: AndroidAuthorizationList
    public var teeEnforced: AndroidAuthorizationList
    public init(attestationVersion: Int, attestationSecurityLevel: Int, keymasterVersion: Int, keymasterSecurityLevel: Int, attestationChallenge: [UInt8], uniqueID: [UInt8], softwareEnforced: AndroidAuthorizationList, teeEnforced: AndroidAuthorizationList) {
        self.attestationVersion = attestationVersion; self.attestationSecurityLevel = attestationSecurityLevel
        self.keymasterVersion = keymasterVersion; self.keymasterSecurityLevel = keymasterSecurityLevel
        self.attestationChallenge = attestationChallenge; self.uniqueID = uniqueID
        self.softwareEnforced = softwareEnforced; self.teeEnforced = teeEnforced
    }
}

/// An X.509 certificate parsed by libcrypto.
public final class X509Certificate: Sendable {
    public init(der: [UInt8]) throws { fatalStub() }
    /// Every certificate in a PEM text, in order.
    public static func certificates(pem: String) throws -> [X509Certificate] { fatalStub() }
    public var der: [UInt8] { fatalStub() }
    public var version: Int { fatalStub() }
    public var serialNumber: [UInt8] { fatalStub() }
    public var subject: DistinguishedName { fatalStub() }
    public var issuer: DistinguishedName { fatalStub() }
    public var notBefore: Date { fatalStub() }
    public var notAfter: Date { fatalStub() }
    public var basicConstraints: BasicConstraints? { fatalStub() }
    public var extensions: [X509Extension] { fatalStub() }
    public func `extension`(oid: String) -> X509Extension? { fatalStub() }
    /// The subject public key.
    public func publicKey() throws -> PublicKey { fatalStub() }
    /// The signature algorithm's dotted OID.
    public var signatureAlgorithmOID: String { fatalStub() }
    /// extendedKeyUsage OIDs, empty when absent.
    public func extendedKeyUsage() throws -> [String] { fatalStub() }
    /// The FIDO AAGUID extension (1.3.6.1.4.1.45724.1.1.4): 16 bytes, nil when absent, throws when malformed.
    public func fidoAAGUID() throws -> [UInt8]? { fatalStub() }
    /// The Apple anonymous attestation nonce (1.2.840.113635.100.8.2), nil when absent.
    public func appleNonce() throws -> [UInt8]? { fatalStub() }
    /// The Android key attestation extension, nil when absent.
    public func androidKeyDescription() throws -> AndroidKeyDescription? { fatalStub() }
    /// TPM manufacturer/model/version from the subjectAlternativeName, nil when absent.
    public func tpmDeviceAttributes() throws -> TPMDeviceAttributes? { fatalStub() }
    /// Whether `issuer`'s key verifies this certificate's signature.
    public func isSigned(by issuer: X509Certificate) -> Bool { fatalStub() }
}

/// Verifies certificate chains with libcrypto's X509_verify_cert.
public enum X509ChainVerifier {
    /// Verifies `chain` (leaf first, then intermediates) to one of `roots` at instant `at`.
    /// Returns the verified path, leaf first, ending at the root. Throws `chainVerification`
    /// naming libcrypto's reason.
    public static func verify(chain: [X509Certificate], roots: [X509Certificate], at: Date) throws -> [X509Certificate] { fatalStub() }
}
