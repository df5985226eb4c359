import Foundation
import SesameWire
import Testing

@testable import SesameService

/// The payloads the auth-session table holds, pinned: a ticket issued by one build is redeemed by
/// the next after an upgrade, so each kind's bytes stay as they were, and read back the same.
@Suite("The stored bytes of every ticket stay the same")
struct TicketBytesTests {
    static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return "\(bytes.count):" + String(hash, radix: 16)
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
        #expect(Self.digest(mfa.payload) == "106:65fade65647b9b1a", "mfa")
        #expect(MFATicket(payload: mfa.payload) == mfa)
        let plain = MFATicket(
            userID: "u", clientID: "c", scope: "", audience: "", amr: [], authTime: Self.time)
        #expect(Self.digest(plain.payload) == "39:cfdf81b552afeefb", "mfa without a password")
        #expect(MFATicket(payload: plain.payload) == plain)

        let oob = OOBChallenge(userID: "u", enrollmentID: "sms|1", mfaTokenHash: [1, 2], salt: [3], codeMAC: [4, 5])
        #expect(Self.digest(oob.payload) == "32:9d7c36679a3faf39", "oob")
        #expect(OOBChallenge(payload: oob.payload) == oob)

        let recovery = RecoveryChallenge(userID: "u", salt: [1], codeMAC: [2, 3])
        #expect(Self.digest(recovery.payload) == "17:605aeeb9de07ca88", "recovery")
        #expect(RecoveryChallenge(payload: recovery.payload) == recovery)

        let enrollment = EnrollmentState(
            reason: .deviceKeyReauth, userID: "u", clientID: "c", deviceKeyID: "dk_1", returnTo: nil)
        #expect(Self.digest(enrollment.payload) == "42:f7d4bef08d12a28f", "enrollment")
        #expect(EnrollmentState(payload: enrollment.payload) == enrollment)

        let challenge = PendingDeviceKeyChallenge(
            purpose: .reauth, userID: "u", clientID: "c", keyID: Array(0..<16), challenge: Array(0..<32))
        #expect(Self.digest(challenge.payload) == "77:5b052bb9f00a1c4", "device key")
        #expect(PendingDeviceKeyChallenge(payload: challenge.payload) == challenge)

        let verification = VerificationTicket(userID: "u", email: "ada@example.com")
        #expect(Self.digest(verification.payload) == "25:f2c6f1a9be063f19", "verification")
        #expect(VerificationTicket(payload: verification.payload) == verification)

        let upgrade = UpgradeState(
            type: .signInWithApple, userID: "u", clientID: "c", passwordStamp: "st", keepFamily: "f",
            keepSession: nil)
        #expect(Self.digest(upgrade.payload) == "46:d9cc6fa550d0ec28", "upgrade")
        #expect(UpgradeState(payload: upgrade.payload) == upgrade)

        let code = AuthorizationCode(
            clientID: "c", redirectURI: "https://app/cb", userID: "u", scope: "openid", audience: nil, nonce: "n",
            codeChallenge: "cc", amr: ["pwd", "mfa"], authTime: Self.time, sessionID: "sid", familyID: "fam")
        #expect(Self.digest(code.payload) == "93:85041cf8edf95080", "code")
        #expect(AuthorizationCode(payload: code.payload) == code)

        let spent = SpentAuthorizationCode(clientID: "c", familyID: "fam", reused: true)
        #expect(Self.digest(spent.payload) == "14:ad390fc01c985e4c", "spent code")
        #expect(SpentAuthorizationCode(payload: spent.payload) == spent)

        var transaction = AuthorizationTransaction(request: Self.request(), deviceHash: [9, 9])
        transaction.identifier = "ada"
        transaction.secondFactorDue = true
        transaction.held = HeldSignIn(userID: "u", amr: ["pwd"], authTime: Self.time, reason: .recovery)
        transaction.recovering = true
        #expect(Self.digest(transaction.payload) == "263:2252ea664d6691f7", "authorize")
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
}
