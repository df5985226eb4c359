import Foundation
import SesameCrypto
import SesameStore
import SesameWire

/// The keys of second factors, derived from the master key: one seals TOTP secrets, one makes
/// the MAC under which SMS codes are kept (a 6-digit code is too guessable to keep as a bare hash).
public struct MFAKeys: Sendable {
    let secrets: [UInt8]
    let codes: [UInt8]

    public init(masterKey: MasterKey) {
        secrets = masterKey.derivedKey(purpose: "mfa-secrets")
        codes = masterKey.derivedKey(purpose: "mfa-codes")
    }

    static func associatedData(tenantID: String, userID: String, enrollmentID: String) -> [UInt8] {
        Array("\(tenantID)\u{0}\(userID)\u{0}\(enrollmentID)".utf8)
    }

    func seal(_ secret: [UInt8], tenantID: String, userID: String, enrollmentID: String, random: any RandomSource)
        throws(ServiceError) -> [UInt8]
    {
        do {
            return try AES256GCM.seal(
                secret, key: secrets,
                associatedData: Self.associatedData(tenantID: tenantID, userID: userID, enrollmentID: enrollmentID),
                random: random)
        } catch {
            throw .unavailable("the second factor could not be sealed")
        }
    }

    func open(_ enrollment: MFAEnrollment, tenantID: String, userID: String) throws(ServiceError) -> [UInt8] {
        do {
            return try AES256GCM.open(
                enrollment.sealedSecret, key: secrets,
                associatedData: Self.associatedData(tenantID: tenantID, userID: userID, enrollmentID: enrollment.id))
        } catch {
            throw .unavailable("a stored second factor could not be opened")
        }
    }

    func mac(code: String, challenge: [UInt8]) -> [UInt8] {
        HMAC.authenticationCode(for: challenge + Array(code.utf8), key: codes)
    }
}

/// What an `mfa_token` stands for while the second factor is asked: the login so far. Kept in
/// the auth-session table under a hash of the token in its own domain, for 10 minutes.
struct MFATicket: Sendable, Equatable {
    static let lifetime: TimeInterval = 600
    /// Outstanding tokens per user.
    static let maxPerUser = 20

    var userID: String
    var clientID: String
    var scope: String
    var audience: String
    var amr: [String]
    var authTime: Date
    /// The password's status at the first step (nil when there was no password).
    var passwordStatus: PasswordStatus?
    var recommendedUpgrades: [RecommendedUpgrade] = []

    static func hash(_ token: String) -> [UInt8] { Digest.sha256(Array("sesame-mfa-token\u{0}\(token)".utf8)) }

}

extension MFATicket: TicketPayload {
    static let kind = TicketKind.mfaToken
    static let recordFields = RecordFields<MFATicket>(
        blank: MFATicket(userID: "", clientID: "", scope: "", audience: "", amr: [], authTime: .distantPast),
        [
            .field("userID", \.userID),
            .field("clientID", \.clientID),
            .field("scope", \.scope),
            .field("audience", \.audience),
            .field("amr", \.amr),
            .field("authTime", \.authTime),
            // "" when there was no password.
            .custom(
                "passwordStatus", minimumBytes: 4,
                write: { ticket, writer in writer.string(ticket.passwordStatus?.rawValue ?? "") },
                read: { ticket, reader, field throws(RecordReader.Failure) in
                    let raw = try reader.string(field)
                    guard !raw.isEmpty else { return ticket.passwordStatus = nil }
                    guard let status = PasswordStatus(rawValue: raw) else {
                        throw RecordReader.Failure(field: field, why: "unknown value")
                    }
                    ticket.passwordStatus = status
                }),
            .field("recommendedUpgrades", \.recommendedUpgrades),
        ])
}

/// An SMS code sent and not yet used (`oob_code` is its handle): 5 minutes, 5 tries.
struct OOBChallenge: Sendable, Equatable {
    static let lifetime: TimeInterval = 300
    static let maxTries = 5

    var userID: String
    var enrollmentID: String
    /// The mfa token it was sent for (empty: an enrollment through an MFA access token).
    var mfaTokenHash: [UInt8]
    /// A random value the code's MAC is bound to.
    var salt: [UInt8]
    var codeMAC: [UInt8]

    static func hash(_ handle: String) -> [UInt8] { Digest.sha256(Array("sesame-oob-code\u{0}\(handle)".utf8)) }
}

extension OOBChallenge: TicketPayload {
    static let kind = TicketKind.oobChallenge
    static let recordFields = RecordFields<OOBChallenge>(
        blank: OOBChallenge(userID: "", enrollmentID: "", mfaTokenHash: [], salt: [], codeMAC: []),
        [
            .field("userID", \.userID),
            .field("enrollmentID", \.enrollmentID),
            .field("mfaTokenHash", \.mfaTokenHash),
            .field("salt", \.salt),
            .field("codeMAC", \.codeMAC),
        ])
}
