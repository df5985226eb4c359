import Foundation
import SesameCrypto
import Testing
import WebAuthn

/// The `tpm`, `android-key` and `android-safetynet` verifiers on the recorded conformance vectors,
/// called directly (no ceremony checks), and on one-field tamperings of good vectors.
///
/// Policy-dependent vectors: the default policy accepts TPM vendors outside the TCG list (the
/// FIDO test vendor id:FFFFF1D0 and the spec vector's id:00000000) and enforces ctsProfileMatch.
/// CRLs are not checked (the core does no I/O), so `bad-android-safetynet-revoked-cert` passes
/// the format check; `revokedCertificatePassesWithoutCRLs` pins that down.
@Suite("TPM and Android attestation vectors")
struct TPMAndAndroidVectorTests {
    static let good = FormatVector.named(["tpm-", "spec-tpm-", "android-key-", "android-safetynet-"])
    static let verifiers: [String: any AttestationFormatVerifier.Type] = [
        "tpm": TPMAttestation.self, "android-key": AndroidKeyAttestation.self,
        "android-safetynet": AndroidSafetyNetAttestation.self,
    ]

    static func verify(_ format: String, _ input: AttestationInput) throws(WebAuthnError) -> AttestationResult {
        guard let verifier = verifiers[format] else {
            throw WebAuthnError(.unsupportedFormat, "no verifier for \(format) in this test")
        }
        return try verifier.verify(input)
    }

    static func vector(_ name: String) throws -> FormatVector {
        try #require(FormatVector.load(name))
    }

    /// Expects `verifier` to reject `input` with `code` and a message naming the broken rule.
    static func expectFailure(
        _ verifier: any AttestationFormatVerifier.Type, _ input: AttestationInput, _ code: WebAuthnError.Code,
        mentioning text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = FormatTestSupport.error { _ = try verifier.verify(input) }
        #expect(error?.code == code, sourceLocation: sourceLocation)
        #expect(error?.message.contains(text) == true, "\(String(describing: error))", sourceLocation: sourceLocation)
    }

    @Test func vectorsArePresent() {
        #expect(Self.good.count == 20)
    }

    @Test(arguments: good)
    func verifiesGoodVector(_ vector: FormatVector) throws {
        let attestation = try vector.decodedAttestation()
        let result = try Self.verify(attestation.format, try vector.input())
        #expect(result.format == attestation.format)
        #expect(result.type == (attestation.format == "tpm" ? .attCA : .basic))
        #expect(!result.certificates.isEmpty)
        // A vector with anchors for its format chains to them; one without is reported unchained.
        if let anchors = vector.rootsPEM?[attestation.format] {
            #expect(result.chainVerified == !anchors.isEmpty)
        } else {
            #expect(!result.chainVerified)
            #expect(result.chainNote != nil)
        }
    }

    @Test(arguments: [
        ("bad-tpm-aaguid-ext-mismatch.json", WebAuthnError.Code.aaguidExtension),
        ("bad-spec-android-key-es256.json", .androidKeyAuthorizationList),
        ("bad-android-safetynet-altered-leaf-cert.json", .trustChain),
        ("bad-android-safetynet-cts-profile-mismatch.json", .safetyNetCTS),
        ("bad-android-safetynet-stale-timestamp.json", .safetyNetTimestamp),
    ])
    func rejectsBadVector(_ name: String, _ code: WebAuthnError.Code) throws {
        let vector = try Self.vector(name)
        #expect(vector.expectCode == code.rawValue)
        let attestation = try vector.decodedAttestation()
        let input = try vector.input()
        #expect(FormatTestSupport.error { _ = try Self.verify(attestation.format, input) }?.code == code)
    }

    @Test func revokedCertificatePassesWithoutCRLs() throws {
        let vector = try Self.vector("bad-android-safetynet-revoked-cert.json")
        #expect(vector.expectCode == "revocation")
        let result = try AndroidSafetyNetAttestation.verify(try vector.input())
        #expect(result.type == .basic)
    }

    @Test func ctsMismatchPassesWhenPolicyDoesNotEnforceIt() throws {
        var input = try Self.vector("bad-android-safetynet-cts-profile-mismatch.json").input()
        input.policy.requireSafetyNetCTSProfileMatch = false
        #expect(try AndroidSafetyNetAttestation.verify(input).type == .basic)
    }

    // MARK: tpm tampering

    static func tpmInput() throws -> AttestationInput {
        try vector("tpm-rs256-fido-conformance.json").input()
    }

    static func tamperedTPM(_ key: String, _ change: ([UInt8]) -> [UInt8]) throws -> AttestationInput {
        var input = try tpmInput()
        let original = try #require(input.statement[textKey: key]?.bytesValue)
        input.statement = FormatTestSupport.setting(input.statement, key, to: .bytes(change(original)))
        return input
    }

    @Test func tpmFlippedSignature() throws {
        let input = try Self.tamperedTPM("sig") { FormatTestSupport.flipping($0, at: -1) }
        #expect(FormatTestSupport.error { _ = try TPMAttestation.verify(input) }?.code == .signature)
    }

    @Test func tpmFlippedExtraData() throws {
        // certInfo: magic(4) type(2) qualifiedSigner(2 + n) extraData(2 + m): flip extraData's last byte.
        let input = try Self.tamperedTPM("certInfo") { bytes in
            let signerSize = Int(bytes[6]) << 8 | Int(bytes[7])
            let extraDataStart = 8 + signerSize + 2
            return FormatTestSupport.flipping(bytes, at: extraDataStart)
        }
        Self.expectFailure(TPMAttestation.self, input, .attestationStatement, mentioning: "extraData")
    }

    @Test func tpmOtherClientData() throws {
        var input = try Self.tpmInput()
        input.clientDataHash = FormatTestSupport.flipping(input.clientDataHash, at: 0)
        Self.expectFailure(TPMAttestation.self, input, .attestationStatement, mentioning: "extraData")
    }

    @Test func tpmFlippedPubAreaKey() throws {
        // The last byte of pubArea is the modulus' last byte: the key no longer matches.
        let input = try Self.tamperedTPM("pubArea") { FormatTestSupport.flipping($0, at: -1) }
        Self.expectFailure(TPMAttestation.self, input, .attestationStatement, mentioning: "modulus")
    }

    @Test func tpmChangedObjectAttributes() throws {
        // Same key, other attributes: pubArea is no longer the object certInfo names.
        let input = try Self.tamperedTPM("pubArea") { FormatTestSupport.flipping($0, at: 7) }
        Self.expectFailure(TPMAttestation.self, input, .attestationStatement, mentioning: "attested.name")
    }

    @Test func tpmFlippedMagic() throws {
        let input = try Self.tamperedTPM("certInfo") { FormatTestSupport.flipping($0, at: 3) }
        Self.expectFailure(TPMAttestation.self, input, .attestationStatement, mentioning: "TPM_GENERATED_VALUE")
    }

    @Test func tpmWrongVersion() throws {
        var input = try Self.tpmInput()
        input.statement = FormatTestSupport.setting(input.statement, "ver", to: .text("1.2"))
        Self.expectFailure(TPMAttestation.self, input, .attestationStatement, mentioning: "ver is")
    }

    @Test func tpmMissingCertInfo() throws {
        var input = try Self.tpmInput()
        input.statement = FormatTestSupport.removing(input.statement, "certInfo")
        Self.expectFailure(TPMAttestation.self, input, .attestationStatement, mentioning: "certInfo is missing")
    }

    @Test func tpmUnknownAlgorithm() throws {
        var input = try Self.tpmInput()
        input.statement = FormatTestSupport.setting(input.statement, "alg", to: .negative(999))
        #expect(FormatTestSupport.error { _ = try TPMAttestation.verify(input) }?.code == .algorithm)
    }

    @Test func tpmAlgorithmWithOtherHash() throws {
        // RS384 instead of RS256: extraData was made with SHA-256, so it no longer matches.
        var input = try Self.tpmInput()
        input.statement = FormatTestSupport.setting(input.statement, "alg", to: .negative(257))
        Self.expectFailure(TPMAttestation.self, input, .attestationStatement, mentioning: "extraData")
    }

    @Test func tpmTestVendorRejectedWhenPolicyRequiresRegisteredVendor() throws {
        var input = try Self.tpmInput()
        input.policy.acceptUnregisteredTPMVendors = false
        Self.expectFailure(TPMAttestation.self, input, .attestationStatement, mentioning: "vendor registry")
    }

    @Test func tpmRegisteredVendorAcceptedWhenPolicyRequiresIt() throws {
        var input = try Self.vector("tpm-rs1-windows-hello-san-spec-compliant.json").input()  // STMicro
        input.policy.acceptUnregisteredTPMVendors = false
        #expect(try TPMAttestation.verify(input).type == .attCA)
    }

    @Test func tpmExpiredCertificate() throws {
        var input = try Self.tpmInput()
        input.now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027, after the FIDO test AIK expired
        #expect(FormatTestSupport.error { _ = try TPMAttestation.verify(input) }?.code == .trustChain)
    }

    // MARK: android-key tampering

    static func androidKeyInput() throws -> AttestationInput {
        try vector("android-key-fido-conformance-b.json").input()
    }

    @Test func androidKeyFlippedSignature() throws {
        var input = try Self.androidKeyInput()
        let sig = try #require(input.statement[textKey: "sig"]?.bytesValue)
        input.statement = FormatTestSupport.setting(
            input.statement, "sig", to: .bytes(FormatTestSupport.flipping(sig, at: -1)))
        #expect(FormatTestSupport.error { _ = try AndroidKeyAttestation.verify(input) }?.code == .signature)
    }

    @Test func androidKeyOtherClientData() throws {
        var input = try Self.androidKeyInput()
        input.clientDataHash = FormatTestSupport.flipping(input.clientDataHash, at: 0)
        #expect(FormatTestSupport.error { _ = try AndroidKeyAttestation.verify(input) }?.code == .signature)
    }

    @Test func androidKeyAlgorithmThatDoesNotFitTheKey() throws {
        var input = try Self.androidKeyInput()
        input.statement = FormatTestSupport.setting(input.statement, "alg", to: .negative(256))  // RS256 on an EC key
        Self.expectFailure(AndroidKeyAttestation.self, input, .attestationStatement, mentioning: "cannot be checked")
    }

    @Test func androidKeyMissingX5C() throws {
        var input = try Self.androidKeyInput()
        input.statement = FormatTestSupport.removing(input.statement, "x5c")
        Self.expectFailure(AndroidKeyAttestation.self, input, .attestationStatement, mentioning: "x5c")
    }

    @Test func androidKeyChainToWrongRoot() throws {
        // Anchors for android-key that are not this chain's root: the chain check must fail.
        var input = try Self.androidKeyInput()
        let otherRoot = try Self.vector("spec-tpm-es256.json").policy().trustAnchors["tpm"] ?? []
        #expect(!otherRoot.isEmpty)
        input.policy.trustAnchors["android-key"] = otherRoot
        #expect(FormatTestSupport.error { _ = try AndroidKeyAttestation.verify(input) }?.code == .trustChain)
    }

    // MARK: android-safetynet tampering

    static func safetyNetInput() throws -> AttestationInput {
        try vector("android-safetynet-android-2019.json").input()
    }

    /// The statement's JWS with `change` applied to its decoded parts, re-encoded.
    static func tamperedSafetyNet(_ change: (inout [[UInt8]]) -> Void) throws -> AttestationInput {
        var input = try safetyNetInput()
        let response = try #require(input.statement[textKey: "response"]?.bytesValue)
        var parts = try response.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            .map { try Base64URL.decode($0) }
        change(&parts)
        let encoded = parts.map { Base64URL.encode($0) }.joined(separator: ".")
        input.statement = FormatTestSupport.setting(input.statement, "response", to: .bytes(Array(encoded.utf8)))
        return input
    }

    @Test func safetyNetReencodedUnchangedStillVerifies() throws {
        let input = try Self.tamperedSafetyNet { _ in }
        #expect(try AndroidSafetyNetAttestation.verify(input).type == .basic)
    }

    @Test func safetyNetFlippedSignature() throws {
        let input = try Self.tamperedSafetyNet { parts in parts[2] = FormatTestSupport.flipping(parts[2], at: -1) }
        #expect(FormatTestSupport.error { _ = try AndroidSafetyNetAttestation.verify(input) }?.code == .signature)
    }

    @Test func safetyNetChangedPayload() throws {
        // A payload edit that keeps the nonce (here the package name) breaks the JWS signature.
        let input = try Self.tamperedSafetyNet { parts in
            let text = String(decoding: parts[1], as: UTF8.self)
                .replacingOccurrences(of: #""apkPackageName":""#, with: #""apkPackageName":"x"#)
            #expect(Array(text.utf8) != parts[1])
            parts[1] = Array(text.utf8)
        }
        #expect(FormatTestSupport.error { _ = try AndroidSafetyNetAttestation.verify(input) }?.code == .signature)
    }

    @Test func safetyNetChangedNonce() throws {
        let input = try Self.tamperedSafetyNet { parts in
            let text = String(decoding: parts[1], as: UTF8.self)
                .replacingOccurrences(of: #""nonce":""#, with: #""nonce":"A"#)
            parts[1] = Array(text.utf8)
        }
        Self.expectFailure(AndroidSafetyNetAttestation.self, input, .attestationStatement, mentioning: "nonce")
    }

    @Test func safetyNetNonceForOtherClientData() throws {
        var input = try Self.safetyNetInput()
        input.clientDataHash = FormatTestSupport.flipping(input.clientDataHash, at: 0)
        Self.expectFailure(AndroidSafetyNetAttestation.self, input, .attestationStatement, mentioning: "nonce")
    }

    @Test func safetyNetTimestampTooOld() throws {
        var input = try Self.safetyNetInput()
        input.now = input.now.addingTimeInterval(input.policy.safetyNetMaxAge + 1)
        #expect(
            FormatTestSupport.error { _ = try AndroidSafetyNetAttestation.verify(input) }?.code == .safetyNetTimestamp)
    }

    @Test func safetyNetTimestampInTheFuture() throws {
        var input = try Self.safetyNetInput()
        input.now = input.now.addingTimeInterval(-(input.policy.safetyNetMaxAge + 1))
        #expect(
            FormatTestSupport.error { _ = try AndroidSafetyNetAttestation.verify(input) }?.code == .safetyNetTimestamp)
    }

    @Test func safetyNetTimestampAtTheEdgeOfTheWindow() throws {
        var input = try Self.safetyNetInput()
        input.now = input.now.addingTimeInterval(input.policy.safetyNetMaxAge - 1)
        #expect(try AndroidSafetyNetAttestation.verify(input).type == .basic)
    }

    @Test func safetyNetEmptyVersion() throws {
        var input = try Self.safetyNetInput()
        input.statement = FormatTestSupport.setting(input.statement, "ver", to: .text(""))
        Self.expectFailure(AndroidSafetyNetAttestation.self, input, .attestationStatement, mentioning: "ver is empty")
    }

    @Test func safetyNetResponseNotAJWS() throws {
        var input = try Self.safetyNetInput()
        input.statement = FormatTestSupport.setting(input.statement, "response", to: .bytes(Array("not a jws".utf8)))
        Self.expectFailure(AndroidSafetyNetAttestation.self, input, .attestationStatement, mentioning: "3 parts")
    }

    @Test func safetyNetUnsupportedJWSAlgorithm() throws {
        let input = try Self.tamperedSafetyNet { parts in
            let text = String(decoding: parts[0], as: UTF8.self).replacingOccurrences(
                of: #""alg":"RS256""#, with: #""alg":"HS256""#)
            parts[0] = Array(text.utf8)
        }
        #expect(FormatTestSupport.error { _ = try AndroidSafetyNetAttestation.verify(input) }?.code == .algorithm)
    }
}
