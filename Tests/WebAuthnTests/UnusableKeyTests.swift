import Foundation
import SesameCrypto
import Testing
import WebAuthn

/// Audit item 10: with a `none` attestation the credential key was stored without ever being
/// imported, so a point off the curve, (0, 0), a 1024-bit RSA key or RSA with e = 1 made an account
/// that could never sign in. Registration now imports the key and refuses what cannot verify.
@Suite("Audit 10: unusable credential keys are refused at registration")
struct UnusableKeyTests {
    let challenge: [UInt8] = Array(repeating: 0x42, count: 32)

    static func coseKey(_ entries: [(Int64, CBORValue)]) throws -> COSEKey {
        try COSEKey(
            bytes: CBOREncoder.encode(
                .map(
                    entries.map {
                        CBORMapEntry(
                            key: $0.0 < 0 ? .negative(UInt64(-1 - $0.0)) : .unsigned(UInt64($0.0)), value: $0.1)
                    })))
    }

    static func ec2(x: [UInt8], y: [UInt8]) throws -> COSEKey {
        try coseKey([(1, .unsigned(2)), (3, .negative(6)), (-1, .unsigned(1)), (-2, .bytes(x)), (-3, .bytes(y))])
    }

    static func rsa(modulusBits: Int, exponent: [UInt8]) throws -> COSEKey {
        // An odd modulus of exactly `modulusBits` bits (its factors do not matter to the import).
        var modulus = [UInt8](repeating: 0xA5, count: modulusBits / 8)
        modulus[0] = 0xC3
        modulus[modulus.count - 1] |= 1
        return try coseKey([(1, .unsigned(3)), (3, .negative(256)), (-1, .bytes(modulus)), (-2, .bytes(exponent))])
    }

    static let cases: [(String, @Sendable () throws -> COSEKey)] = [
        ("EC point (0, 0)", { try ec2(x: Array(repeating: 0, count: 32), y: Array(repeating: 0, count: 32)) }),
        ("EC point off the curve", { try ec2(x: Array(repeating: 1, count: 32), y: Array(repeating: 1, count: 32)) }),
        ("RSA 1024 bits", { try rsa(modulusBits: 1024, exponent: [1, 0, 1]) }),
        ("RSA e = 1", { try rsa(modulusBits: 2048, exponent: [1]) }),
        ("RSA even exponent", { try rsa(modulusBits: 2048, exponent: [1, 0, 0]) }),
    ]

    @Test(arguments: cases.indices)
    func isRefused(_ index: Int) throws {
        let (name, make) = Self.cases[index]
        var authenticator = try TestAuthenticator()
        authenticator.credentialKeyOverride = try make()
        let relyingParty = RelyingParty(
            policy: RelyingPartyPolicy(rpID: "example.com", allowedOrigins: ["https://example.com"]))
        let state = RegistrationState(
            challenge: challenge, userHandle: [1, 2, 3], userVerification: .preferred, algorithms: [.es256, .rs256])
        let error = #expect(throws: WebAuthnError.self, "\(name)") {
            try relyingParty.finishRegistration(
                try authenticator.register(challenge: challenge), state: state, now: Date())
        }
        #expect(error?.code == .malformed, "\(name)")
        #expect(
            error?.message.hasPrefix("the credential public key is not usable") == true,
            "\(name): \(error?.message ?? "")")
    }

    @Test func aUsableKeyOfEveryTypeStillRegisters() throws {
        for (keyType, algorithm) in [
            (KeyType.ec(.p256), COSEAlgorithm.es256), (.rsa(bits: 2048), .rs256), (.ed25519, .edDSA),
        ] {
            let authenticator = try TestAuthenticator(keyType: keyType, algorithm: algorithm)
            let relyingParty = RelyingParty(
                policy: RelyingPartyPolicy(rpID: "example.com", allowedOrigins: ["https://example.com"]))
            let state = RegistrationState(
                challenge: challenge, userHandle: [1, 2, 3], userVerification: .preferred,
                algorithms: [.es256, .rs256, .edDSA])
            _ = try relyingParty.finishRegistration(
                try authenticator.register(challenge: challenge), state: state, now: Date())
        }
    }
}
