import Foundation
import SesameCrypto
import WebAuthn

/// A minimal authenticator for tests: makes `none` or packed-self registrations and assertions
/// with configurable flags, counters and origins, so each negative test can break one thing.
struct TestAuthenticator {
    var rpID = "example.com"
    var origin = "https://example.com"
    var flags: AuthenticatorFlags = [.userPresent, .userVerified, .backupEligible, .backupState]
    var signCount: UInt32 = 0
    var credentialID: [UInt8] = Array(repeating: 0x11, count: 16)
    var aaguid: [UInt8] = Array(repeating: 0, count: 16)
    let privateKey: PrivateKey
    let algorithm: COSEAlgorithm
    /// A credential public key to register instead of the real one (for unusable-key tests).
    var credentialKeyOverride: COSEKey?

    init(keyType: KeyType = .ec(.p256), algorithm: COSEAlgorithm = .es256) throws {
        privateKey = try PrivateKey.generate(keyType)
        self.algorithm = algorithm
    }

    var coseKey: COSEKey {
        get throws { try COSEKey(publicKey: privateKey.publicKey, algorithm: algorithm) }
    }

    func clientData(type: String, challenge: [UInt8], extra: String = "") -> [UInt8] {
        Array(
            #"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(origin)"\#(extra)}"#.utf8)
    }

    /// A registration response with `fmt` "none" or "packed" (self attestation).
    func register(
        challenge: [UInt8], format: String = "none", clientDataExtra: String = "", rpIDHash: [UInt8]? = nil
    ) throws -> RegistrationCredential {
        let clientDataJSON = clientData(type: "webauthn.create", challenge: challenge, extra: clientDataExtra)
        let authenticatorData = AuthenticatorData(
            rpIDHash: rpIDHash ?? Digest.sha256(Array(rpID.utf8)), flags: flags.union(.attestedCredentialData),
            signCount: signCount,
            attestedCredentialData: AttestedCredentialData(
                aaguid: aaguid, credentialID: credentialID, credentialPublicKey: try credentialKeyOverride ?? coseKey),
            extensions: nil)
        var statement: [CBORMapEntry] = []
        if format == "packed" {
            let signature = try privateKey.signature(
                for: authenticatorData.raw + Digest.sha256(clientDataJSON), algorithm: algorithm.signatureAlgorithm)
            statement = [
                CBORMapEntry(key: .text("alg"), value: .negative(UInt64(-1 - algorithm.rawValue))),
                CBORMapEntry(key: .text("sig"), value: .bytes(signature)),
            ]
        }
        let attestationObject = CBOREncoder.encode(
            .map([
                CBORMapEntry(key: .text("fmt"), value: .text(format)),
                CBORMapEntry(key: .text("attStmt"), value: .map(statement)),
                CBORMapEntry(key: .text("authData"), value: .bytes(authenticatorData.raw)),
            ]))
        return RegistrationCredential(
            id: credentialID, clientDataJSON: clientDataJSON, attestationObject: attestationObject,
            transports: ["internal"])
    }

    /// An assertion over `challenge`.
    func assert(challenge: [UInt8], userHandle: [UInt8]? = nil, clientDataExtra: String = "") throws
        -> AuthenticationCredential
    {
        let clientDataJSON = clientData(type: "webauthn.get", challenge: challenge, extra: clientDataExtra)
        let authenticatorData = AuthenticatorData(
            rpIDHash: Digest.sha256(Array(rpID.utf8)), flags: flags, signCount: signCount,
            attestedCredentialData: nil, extensions: nil)
        let signature = try privateKey.signature(
            for: authenticatorData.raw + Digest.sha256(clientDataJSON), algorithm: algorithm.signatureAlgorithm)
        return AuthenticationCredential(
            id: credentialID, clientDataJSON: clientDataJSON, authenticatorData: authenticatorData.raw,
            signature: signature, userHandle: userHandle)
    }
}
