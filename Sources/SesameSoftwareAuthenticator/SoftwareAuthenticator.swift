import Foundation
import SesameCrypto
import Synchronization
import WebAuthn

/// A FIDO2-style software authenticator together with the client half of a WebAuthn ceremony:
/// it makes credentials and assertions from WebAuthn options, writes clientDataJSON the way a
/// browser or platform API does, and keeps its credentials in a `CredentialStore`.
///
/// For the server's live tests, the load generator, `sesame signup/login` and Linux apps. Its keys
/// are ordinary libcrypto keys held in the store; it is not a hardware authenticator and makes no
/// claim to be one (`packed` attestation is self attestation).
public final class SoftwareAuthenticator: Sendable {
    /// How this authenticator behaves.
    public let configuration: AuthenticatorConfiguration
    /// Where its credentials are kept.
    public let store: any CredentialStore
    /// Source of credential IDs (inject `DeterministicRandom` in tests; keys always come from libcrypto).
    private let random: any RandomSource
    /// The clock stamped on new credentials.
    private let now: @Sendable () -> Date
    /// Imported private keys by credential id: decoding PKCS#8 costs several times a signature.
    private let keyCache = Mutex<[[UInt8]: (pkcs8: [UInt8], key: PrivateKey)]>([:])

    /// An authenticator with a configuration, a store (in memory by default), a random source for
    /// credential IDs and a clock for creation times.
    public init(
        configuration: AuthenticatorConfiguration = AuthenticatorConfiguration(),
        store: any CredentialStore = InMemoryCredentialStore(), random: any RandomSource = SystemRandom(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.store = store
        self.random = random
        self.now = now
    }

    // MARK: Registration

    /// Makes a new credential, as `navigator.credentials.create()` with this authenticator would.
    ///
    /// Throws `notSupported` when no offered algorithm is in `configuration.algorithms`,
    /// `invalidState` when an `excludeCredentials` entry names a credential this authenticator holds
    /// for the same RP ID, and `invalidOptions` for an empty RP ID or challenge or a user handle
    /// that is not 1–64 bytes. A credential for the same RP ID and user handle is replaced.
    public func makeCredential(_ request: CredentialCreationRequest) throws(AuthenticatorError) -> RegistrationResult {
        guard configuration.aaguid.count == 16 else {
            throw AuthenticatorError(.configuration, "AAGUID is \(configuration.aaguid.count) bytes, expected 16")
        }
        guard !request.rpID.isEmpty else { throw AuthenticatorError(.invalidOptions, "rp.id is empty") }
        guard !request.challenge.isEmpty else { throw AuthenticatorError(.invalidOptions, "challenge is empty") }
        // WebAuthn §5.4.3: user.id is at most 64 bytes (and a user handle is never empty).
        guard (1...64).contains(request.userHandle.count) else {
            throw AuthenticatorError(.invalidOptions, "user.id is \(request.userHandle.count) bytes, expected 1–64")
        }
        // §5.1.3 step 11: an empty pubKeyCredParams means ES256, then RS256. The relying party's
        // order is its preference; the first algorithm this authenticator supports wins.
        let offered = request.pubKeyCredParams.isEmpty ? [-7, -257] : request.pubKeyCredParams
        guard
            let algorithm = offered.lazy.compactMap(COSEAlgorithm.init(rawValue:)).first(where: {
                $0.softwareKeyType != nil && self.configuration.algorithms.contains($0)
            }), let keyType = algorithm.softwareKeyType
        else {
            throw AuthenticatorError(
                .notSupported,
                "none of the offered algorithms \(offered) is supported "
                    + "(this authenticator supports \(configuration.algorithms.map(\.name)))")
        }
        // CTAP2 authenticatorMakeCredential: an excluded credential for this RP already here.
        for excluded in request.excludeCredentials {
            if let existing = try store.credential(id: excluded), existing.rpID == request.rpID {
                throw AuthenticatorError(
                    .invalidState,
                    "excluded credential \(Base64URL.encode(excluded)) is already registered for \(request.rpID)")
            }
        }

        let privateKey: PrivateKey
        let signingKey: [UInt8]
        let coseKey: COSEKey
        do {
            privateKey = try PrivateKey.generate(keyType)
            signingKey = privateKey.pkcs8DER
            coseKey = try COSEKey(publicKey: privateKey.publicKey, algorithm: algorithm)
        } catch {
            throw AuthenticatorError(.key, "cannot make a \(algorithm.name) key: \(error)")
        }
        guard !signingKey.isEmpty else { throw AuthenticatorError(.key, "cannot export the new key as PKCS#8") }
        let credentialID = try randomBytes(configuration.credentialIDLength.rawValue)

        let backupEligible = configuration.backupEligible
        let authenticatorData = AuthenticatorData(
            rpIDHash: Digest.sha256(Array(request.rpID.utf8)),
            flags: flags(request.userVerification, backupEligible: backupEligible).union(.attestedCredentialData),
            signCount: 0,
            attestedCredentialData: AttestedCredentialData(
                aaguid: configuration.aaguid, credentialID: credentialID, credentialPublicKey: coseKey),
            extensions: nil)
        let clientDataJSON = clientData(type: "webauthn.create", challenge: request.challenge, rpID: request.rpID)

        var statement: [CBORMapEntry] = []
        switch configuration.attestation {
        case .none:
            break
        case .packed:
            if let identity = configuration.attestationIdentity {
                // §8.2 full attestation: sig by the attestation key, its certificate path in x5c.
                let attestationKey: PrivateKey
                do {
                    attestationKey = try PrivateKey(pkcs8DER: identity.privateKeyPKCS8)
                } catch {
                    throw AuthenticatorError(.configuration, "the attestation key is not usable: \(error)")
                }
                let signature = try sign(
                    authenticatorData.raw + Digest.sha256(clientDataJSON), with: attestationKey,
                    algorithm: identity.algorithm)
                statement = [
                    CBORMapEntry(key: .text("alg"), value: CBORValue(identity.algorithm.rawValue)),
                    CBORMapEntry(key: .text("sig"), value: .bytes(signature)),
                    CBORMapEntry(key: .text("x5c"), value: .array(identity.certificates.map { .bytes($0) })),
                ]
                break
            }
            // §8.2 self attestation: alg and sig over authenticatorData ‖ clientDataHash, no x5c.
            let signature = try sign(
                authenticatorData.raw + Digest.sha256(clientDataJSON), with: privateKey, algorithm: algorithm)
            statement = [
                CBORMapEntry(key: .text("alg"), value: CBORValue(algorithm.rawValue)),
                CBORMapEntry(key: .text("sig"), value: .bytes(signature)),
            ]
        }
        let attestationObject = CBOREncoder.encode(
            .map([
                CBORMapEntry(key: .text("fmt"), value: .text(configuration.attestation.rawValue)),
                CBORMapEntry(key: .text("attStmt"), value: .map(statement)),
                CBORMapEntry(key: .text("authData"), value: .bytes(authenticatorData.raw)),
            ]))

        let record = AuthenticatorCredential(
            rpID: request.rpID, id: credentialID, userHandle: request.userHandle, userName: request.userName,
            userDisplayName: request.userDisplayName, algorithm: algorithm, privateKeyPKCS8: signingKey, signCount: 0,
            backupEligible: backupEligible, created: now())
        try store.save(record)

        let credential = RegistrationCredential(
            id: credentialID, clientDataJSON: clientDataJSON, attestationObject: attestationObject,
            transports: configuration.transports, authenticatorAttachment: configuration.authenticatorAttachment)
        var response = JSONText()
        response.string("clientDataJSON", Base64URL.encode(clientDataJSON))
        response.string("attestationObject", Base64URL.encode(attestationObject))
        response.raw("transports", "[" + configuration.transports.map(JSONText.quoted).joined(separator: ",") + "]")
        response.string("authenticatorData", Base64URL.encode(authenticatorData.raw))
        response.string("publicKey", Base64URL.encode(privateKey.publicKey.spkiDER))
        response.raw("publicKeyAlgorithm", String(algorithm.rawValue))
        return RegistrationResult(
            credential: credential, json: credentialJSON(id: credentialID, response: response),
            authenticatorData: authenticatorData, publicKey: coseKey, storedCredential: record)
    }

    /// Makes a credential from creation options JSON (see `CredentialCreationRequest(optionsJSON:)`),
    /// such as the body of Sesame's `/passkey/register` response.
    public func makeCredential(optionsJSON: [UInt8]) throws(AuthenticatorError) -> RegistrationResult {
        try makeCredential(CredentialCreationRequest(optionsJSON: optionsJSON))
    }

    // MARK: Shared parts

    /// UP, UV and BE/BS as configured (BS only on a backup-eligible credential).
    func flags(_ requested: UserVerificationRequirement, backupEligible: Bool) -> AuthenticatorFlags {
        var flags: AuthenticatorFlags = []
        if configuration.userPresence { flags.insert(.userPresent) }
        switch configuration.userVerification {
        case .always: flags.insert(.userVerified)
        case .unlessDiscouraged where requested != .discouraged: flags.insert(.userVerified)
        case .unlessDiscouraged, .never: break
        }
        if backupEligible {
            flags.insert(.backupEligible)
            if configuration.backupState { flags.insert(.backupState) }
        }
        return flags
    }

    /// clientDataJSON with members in Chrome's order: type, challenge, origin, crossOrigin, then
    /// topOrigin when configured.
    func clientData(type: String, challenge: [UInt8], rpID: String) -> [UInt8] {
        var json = JSONText()
        json.string("type", type)
        json.string("challenge", Base64URL.encode(challenge))
        json.string("origin", (configuration.origin ?? .iOSApp(rpID: rpID)).value)
        json.bool("crossOrigin", configuration.crossOrigin)
        if let topOrigin = configuration.topOrigin { json.string("topOrigin", topOrigin) }
        return Array(json.json.utf8)
    }

    /// The `PublicKeyCredential.toJSON()` envelope around a response object.
    func credentialJSON(id: [UInt8], response: JSONText) -> [UInt8] {
        var json = JSONText()
        json.string("id", Base64URL.encode(id))
        json.string("rawId", Base64URL.encode(id))
        json.string("type", "public-key")
        json.string("authenticatorAttachment", configuration.authenticatorAttachment)
        json.raw("clientExtensionResults", "{}")
        json.raw("response", response.json)
        return Array(json.json.utf8)
    }

    func sign(_ message: [UInt8], with key: PrivateKey, algorithm: COSEAlgorithm) throws(AuthenticatorError)
        -> [UInt8]
    {
        do {
            return try key.signature(for: message, algorithm: algorithm.signatureAlgorithm)
        } catch {
            throw AuthenticatorError(.key, "cannot sign with \(algorithm.name): \(error)")
        }
    }

    private func randomBytes(_ count: Int) throws(AuthenticatorError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try random.bytes(count: count)
        } catch {
            throw AuthenticatorError(.key, "random source failed: \(error)")
        }
        guard bytes.count == count else {
            throw AuthenticatorError(.key, "random source returned \(bytes.count) bytes, asked for \(count)")
        }
        return bytes
    }
}

extension COSEAlgorithm {
    /// The key this authenticator generates for the algorithm; nil for RS1 (legacy attestation only).
    var softwareKeyType: KeyType? {
        switch self {
        case .es256: return .ec(.p256)
        case .es384: return .ec(.p384)
        case .es512: return .ec(.p521)
        case .edDSA: return .ed25519
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: return .rsa(bits: 2048)
        case .rs1: return nil
        }
    }
}

extension SoftwareAuthenticator {
    /// The credential's private key, imported once and reused while its PKCS#8 bytes are unchanged.
    func signingKey(for credential: AuthenticatorCredential) throws(AuthenticatorError) -> PrivateKey {
        if let cached = keyCache.withLock({ $0[credential.id] }), cached.pkcs8 == credential.privateKeyPKCS8 {
            return cached.key
        }
        let key = try credential.privateKey()
        keyCache.withLock { cache in
            if cache.count >= 1_024 { cache.removeAll(keepingCapacity: true) }
            cache[credential.id] = (credential.privateKeyPKCS8, key)
        }
        return key
    }
}
