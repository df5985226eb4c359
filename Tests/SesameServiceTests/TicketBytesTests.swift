import Foundation
import SesameCrypto
import SesameWire
import Testing

@testable import SesameService

/// The payloads the auth-session table holds, pinned: a ticket issued by one build is redeemed by
/// the next after an upgrade, so each kind's bytes stay as they were, and read back the same.
@Suite("The stored bytes of every ticket stay the same")
struct TicketBytesTests {
    /// The length and the first 8 bytes of the SHA-256, in hex.
    static func digest(_ bytes: [UInt8]) -> String {
        "\(bytes.count):" + Digest.sha256(bytes).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    static let time = Date(timeIntervalSinceReferenceDate: 800_000_000.25)

    static func request() -> AuthorizationRequest {
        AuthorizationRequest(
            clientID: "c1", redirectURI: "https://app.example.com/cb", responseMode: .formPost, scope: "openid email",
            state: "s", nonce: "n", codeChallenge: "x" + String(repeating: "y", count: 42),
            prompts: [.login, .consent],
            maxAge: 300, loginHint: "ada@example.com", startsWithSignup: true, locale: .ja, audience: "https://api",
            connection: "db")
    }

    @Test func everyKind() {
        var mfa = MFATicket(
            userID: "sesame|01", clientID: "c1", scope: "openid", audience: "https://api", amr: ["pwd"],
            authTime: Self.time)
        mfa.passwordStatus = .weak
        mfa.recommendedUpgrades = [.passkey, .strongPassword]
        #expect(Self.digest(mfa.payload) == "106:51a8cbbc63999345", "mfa")
        #expect(MFATicket(payload: mfa.payload) == mfa)
        let plain = MFATicket(
            userID: "u", clientID: "c", scope: "", audience: "", amr: [], authTime: Self.time)
        #expect(Self.digest(plain.payload) == "39:b085772d455e6400", "mfa without a password")
        #expect(MFATicket(payload: plain.payload) == plain)

        let oob = OOBChallenge(userID: "u", enrollmentID: "sms|1", mfaTokenHash: [1, 2], salt: [3], codeMAC: [4, 5])
        #expect(Self.digest(oob.payload) == "32:947127d5f216c502", "oob")
        #expect(OOBChallenge(payload: oob.payload) == oob)

        let recovery = RecoveryChallenge(userID: "u", salt: [1], codeMAC: [2, 3])
        #expect(Self.digest(recovery.payload) == "17:d40e40cffcddd3ad", "recovery")
        #expect(RecoveryChallenge(payload: recovery.payload) == recovery)

        let enrollment = EnrollmentState(
            reason: .deviceKeyReauth, userID: "u", clientID: "c", deviceKeyID: "dk_1", returnTo: nil)
        #expect(Self.digest(enrollment.payload) == "42:0026b04b3f2f9171", "enrollment")
        #expect(EnrollmentState(payload: enrollment.payload) == enrollment)

        let challenge = PendingDeviceKeyChallenge(
            purpose: .reauth, userID: "u", clientID: "c", keyID: Array(0..<16), challenge: Array(0..<32))
        #expect(Self.digest(challenge.payload) == "77:6d395ae6f5a42b25", "device key")
        #expect(PendingDeviceKeyChallenge(payload: challenge.payload) == challenge)

        let verification = VerificationTicket(userID: "u", email: "ada@example.com")
        #expect(Self.digest(verification.payload) == "25:471cad402f23a98a", "verification")
        #expect(VerificationTicket(payload: verification.payload) == verification)

        let upgrade = UpgradeState(
            type: .signInWithApple, userID: "u", clientID: "c", passwordStamp: "st", keepFamily: "f",
            keepSession: nil)
        #expect(Self.digest(upgrade.payload) == "46:2e38d1bb66ca7477", "upgrade")
        #expect(UpgradeState(payload: upgrade.payload) == upgrade)

        let code = AuthorizationCode(
            clientID: "c", redirectURI: "https://app/cb", userID: "u", scope: "openid", audience: nil, nonce: "n",
            codeChallenge: "cc", amr: ["pwd", "mfa"], authTime: Self.time, sessionID: "sid", familyID: "fam")
        #expect(Self.digest(code.payload) == "93:15d31e00c0b38ec6", "code")
        #expect(AuthorizationCode(payload: code.payload) == code)

        let spent = SpentAuthorizationCode(clientID: "c", familyID: "fam", reused: true)
        #expect(Self.digest(spent.payload) == "14:7e6ee7bd9709934e", "spent code")
        #expect(SpentAuthorizationCode(payload: spent.payload) == spent)

        var transaction = AuthorizationTransaction(request: Self.request(), deviceHash: [9, 9])
        transaction.identifier = "ada"
        transaction.secondFactorDue = true
        transaction.held = HeldSignIn(userID: "u", amr: ["pwd"], authTime: Self.time, reason: .recovery)
        transaction.recovering = true
        #expect(Self.digest(transaction.payload) == "263:0392303ef9e14f57", "authorize")
        #expect(AuthorizationTransaction(payload: transaction.payload) == transaction)
        // A request begun before `recovering` was written reads as not recovering.
        var before = transaction
        before.recovering = false
        #expect(AuthorizationTransaction(payload: Array(transaction.payload.dropLast())) == before)

        let reset = ResetTicket(userID: "u", connectionID: "con", generation: "-")
        #expect(reset.payload.first == TicketKind.passwordReset.rawValue)
        #expect(ResetTicket(payload: reset.payload) == reset)
    }

    /// A payload of one kind never reads as another, and nothing after the last field is allowed.
    @Test func aPayloadIsItsKindAndNoMore() {
        let verification = VerificationTicket(userID: "u", email: "e")
        #expect(RecoveryChallenge(payload: verification.payload) == nil)
        #expect(VerificationTicket(payload: verification.payload + [0]) == nil)
        #expect(VerificationTicket(payload: Array(verification.payload.dropLast())) == nil)
        var short = PendingDeviceKeyChallenge(
            purpose: .reauth, userID: "u", clientID: "c", keyID: Array(0..<16), challenge: Array(0..<32))
        short.keyID = [1]
        #expect(PendingDeviceKeyChallenge(payload: short.payload) == nil, "a key id is 16 bytes")
    }

    /// Every payload cut short is refused (nil), and a flipped byte is refused or read: never a crash.
    @Test func damageToAnyPayloadIsRefusedNotACrash() {
        func damage<T: TicketPayload>(_ ticket: T) {
            let bytes = ticket.payload
            for length in 0..<bytes.count {
                // A transaction without its last field reads (the field came later); nothing else does.
                if T.self == AuthorizationTransaction.self, length == bytes.count - 1 { continue }
                #expect(T(payload: Array(bytes.prefix(length))) == nil, "\(T.self) cut to \(length)")
            }
            for index in bytes.indices {
                var flipped = bytes
                flipped[index] ^= 0xFF
                _ = T(payload: flipped)
            }
        }
        var transaction = AuthorizationTransaction(request: Self.request(), deviceHash: [9, 9])
        transaction.held = HeldSignIn(userID: "u", amr: ["pwd"], authTime: Self.time, reason: .recovery)
        damage(transaction)
        damage(
            AuthorizationCode(
                clientID: "c", redirectURI: "https://app/cb", userID: "u", scope: "openid", audience: "a",
                nonce: "n", codeChallenge: "cc", amr: ["pwd"], authTime: Self.time, sessionID: "s", familyID: "f"))
        damage(
            MFATicket(userID: "u", clientID: "c", scope: "openid", audience: "a", amr: ["pwd"], authTime: Self.time))
        damage(
            PendingDeviceKeyChallenge(
                purpose: .reauth, userID: "u", clientID: "c", keyID: Array(0..<16), challenge: Array(0..<32)))
        damage(AppleWebUpgradeState(token: "t", rawNonce: "n", redirectURI: "https://app/cb"))
    }
}
