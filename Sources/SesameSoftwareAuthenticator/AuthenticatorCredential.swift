import Foundation
import SesameCrypto
import WebAuthn

/// One credential the software authenticator holds: what a platform keychain keeps for a passkey,
/// including its private key (PKCS#8 DER).
public struct AuthenticatorCredential: Sendable, Hashable, CustomStringConvertible {
    /// The RP ID the credential is scoped to.
    public var rpID: String
    /// The credential ID.
    public var id: [UInt8]
    /// The user handle (`user.id`) the relying party gave at registration.
    public var userHandle: [UInt8]
    /// `user.name` at registration.
    public var userName: String
    /// `user.displayName` at registration.
    public var userDisplayName: String
    /// The credential's COSE algorithm.
    public var algorithm: COSEAlgorithm
    /// The private key as DER PKCS#8 PrivateKeyInfo. Secret.
    public var privateKeyPKCS8: [UInt8]
    /// The last signature counter reported (0 when the counter policy is `.zero`).
    public var signCount: UInt32
    /// BE, fixed when the credential was made.
    public var backupEligible: Bool
    /// When the credential was made (from the authenticator's clock).
    public var created: Date

    /// Groups a credential's fields.
    public init(
        rpID: String, id: [UInt8], userHandle: [UInt8], userName: String, userDisplayName: String,
        algorithm: COSEAlgorithm, privateKeyPKCS8: [UInt8], signCount: UInt32, backupEligible: Bool, created: Date
    ) {
        self.rpID = rpID
        self.id = id
        self.userHandle = userHandle
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.algorithm = algorithm
        self.privateKeyPKCS8 = privateKeyPKCS8
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.created = created
    }

    /// The private key, imported from `privateKeyPKCS8`.
    public func privateKey() throws(AuthenticatorError) -> PrivateKey {
        do {
            return try PrivateKey(pkcs8DER: privateKeyPKCS8)
        } catch {
            throw AuthenticatorError(
                .key, "credential \(Base64URL.encode(id)): cannot import its private key: \(error)")
        }
    }

    /// The credential public key as a COSE_Key.
    public func publicKey() throws(AuthenticatorError) -> COSEKey {
        let key = try privateKey()
        do {
            return try COSEKey(publicKey: key.publicKey, algorithm: algorithm)
        } catch {
            throw AuthenticatorError(.key, "credential \(Base64URL.encode(id)): \(error.message)")
        }
    }

    /// A summary for logs; the private key is never printed.
    public var description: String {
        "AuthenticatorCredential(rpID: \(rpID), id: \(Base64URL.encode(id)), user: \(userName), "
            + "algorithm: \(algorithm.name), signCount: \(signCount))"
    }
}
