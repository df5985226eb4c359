import Foundation
import SesameCrypto
import SesameStore
import WebAuthn

/// What an authorization code stands for until the token endpoint redeems it: single use, 60
/// seconds, kept in the auth-session table under a hash of the code in its own domain.
struct AuthorizationCode: Sendable, Equatable {
    static let lifetime: TimeInterval = 60
    /// Codes one user may hold unredeemed.
    static let maxPerUser = 50

    var clientID: String
    var redirectURI: String
    var userID: String
    var scope: String
    var audience: String?
    var nonce: String?
    var codeChallenge: String?
    var amr: [String]
    var authTime: Date
    /// The SSO session the code came from (the id token's `sid`).
    var sessionID: String
    /// The refresh-token family the redemption starts (drawn now, so a reuse can revoke it).
    var familyID: String

    static func hash(_ code: String) -> [UInt8] { Digest.sha256(Array("sesame-authorization-code\u{0}\(code)".utf8)) }

}

extension AuthorizationCode: TicketPayload {
    static let kind = TicketKind.authorizationCode
    static let recordFields = RecordFields<AuthorizationCode>(
        blank: AuthorizationCode(
            clientID: "", redirectURI: "", userID: "", scope: "", audience: nil, nonce: nil, codeChallenge: nil,
            amr: [], authTime: .distantPast, sessionID: "", familyID: ""),
        [
            .field("clientID", \.clientID),
            .field("redirectURI", \.redirectURI),
            .field("userID", \.userID),
            .field("scope", \.scope),
            .field("audience", \.audience),
            .field("nonce", \.nonce),
            .field("codeChallenge", \.codeChallenge),
            .field("amr", \.amr),
            .field("authTime", \.authTime),
            .field("sessionID", \.sessionID),
            .field("familyID", \.familyID),
        ])
}

/// A redeemed code, remembered for an hour so that presenting it again revokes what it issued
/// (RFC 6749 §4.1.2, RFC 9700 §4.15).
struct SpentAuthorizationCode: Sendable, Equatable {
    static let lifetime: TimeInterval = 3_600

    var clientID: String
    var familyID: String
    /// Set when the code was presented again: the family is revoked, and a redemption still
    /// running revokes what it is issuing.
    var reused: Bool

    static func hash(_ code: String) -> [UInt8] { Digest.sha256(Array("sesame-spent-code\u{0}\(code)".utf8)) }
}

extension SpentAuthorizationCode: TicketPayload {
    static let kind = TicketKind.spentAuthorizationCode
    static let recordFields = RecordFields<SpentAuthorizationCode>(
        blank: SpentAuthorizationCode(clientID: "", familyID: "", reused: false),
        [.field("clientID", \.clientID), .field("familyID", \.familyID), .field("reused", \.reused)])
}

/// Issuing and redeeming authorization codes, shared by `/authorize` and the token endpoint.
struct AuthorizationCodes: Sendable {
    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource

    static let invalid = ServiceError.invalidGrant("the code is unknown, expired or already used")

    /// Stores `code` and returns the value the client gets.
    func issue(_ code: AuthorizationCode, tenant: TenantRecord) throws(ServiceError) -> String {
        let now = clock.now()
        let value = Base64URL.encode(try random.serviceBytes(32))
        let record = AuthSessionRecord(
            handleHash: AuthorizationCode.hash(value), tenantID: tenant.id, requester: "code:\(code.userID)",
            expiresAt: now + AuthorizationCode.lifetime, payload: code.payload)
        let stored = try access.write(.relaxed) { transaction in
            try transaction.authSessions.insert(record, maxPerRequester: AuthorizationCode.maxPerUser, now: now)
        }
        guard stored == .inserted else {
            throw .tooManyRequests("too many codes are waiting to be redeemed for this user", retryAfterSeconds: 60)
        }
        return value
    }

    /// Consumes `value` for `clientID`: the code, or `invalid_grant`. A code presented again
    /// revokes the refresh-token family its first redemption started.
    func redeem(_ value: String, tenant: TenantRecord, clientID: String) throws(ServiceError) -> AuthorizationCode {
        guard !value.isEmpty, value.utf8.count <= 128 else { throw Self.invalid }
        let now = clock.now()
        let found = try access.write(.relaxed) { transaction -> AuthorizationCode? in
            if let record = try transaction.authSessions.consume(handleHash: AuthorizationCode.hash(value)),
                record.tenantID == tenant.id, let code = AuthorizationCode(payload: record.payload)
            {
                let spent = SpentAuthorizationCode(clientID: code.clientID, familyID: code.familyID, reused: false)
                _ = try transaction.authSessions.insert(
                    AuthSessionRecord(
                        handleHash: SpentAuthorizationCode.hash(value), tenantID: tenant.id,
                        requester: "spent-code:\(code.familyID)", expiresAt: now + SpentAuthorizationCode.lifetime,
                        payload: spent.payload),
                    maxPerRequester: .max, now: now)
                return record.expiresAt > now ? code : nil
            }
            let spentHash = SpentAuthorizationCode.hash(value)
            if let record = try transaction.authSessions.consume(handleHash: spentHash), record.tenantID == tenant.id,
                var spent = SpentAuthorizationCode(payload: record.payload)
            {
                spent.reused = true
                var marked = record
                marked.payload = spent.payload
                _ = try transaction.authSessions.insert(marked, maxPerRequester: .max, now: now)
                try transaction.refreshTokens.revokeFamily(tenantID: tenant.id, familyID: spent.familyID, at: now)
            }
            return nil
        }
        guard let found else { throw Self.invalid }
        guard found.clientID == clientID else { throw .invalidGrant("the code was issued to another client") }
        return found
    }

    /// After the tokens of a redemption were issued: when the code was presented again meanwhile,
    /// revokes the new family too and refuses.
    func confirm(_ value: String, code: AuthorizationCode, tenant: TenantRecord) throws(ServiceError) {
        let now = clock.now()
        let reused = try access.write(.relaxed) { transaction -> Bool in
            guard let record = try transaction.authSessions.get(handleHash: SpentAuthorizationCode.hash(value)),
                let spent = SpentAuthorizationCode(payload: record.payload), spent.reused
            else { return false }
            try transaction.refreshTokens.revokeFamily(tenantID: tenant.id, familyID: code.familyID, at: now)
            return true
        }
        if reused { throw Self.invalid }
    }

    /// RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))) equals the challenge. The verifier
    /// is 43 to 128 unreserved characters (§4.1).
    static func verifierMatches(_ verifier: String, challenge: String) -> Bool {
        let bytes = Array(verifier.utf8)
        guard (43...128).contains(bytes.count), bytes.allSatisfy(isUnreserved) else { return false }
        let computed = Base64URL.encode(Digest.sha256(bytes))
        return constantTimeEquals(Array(computed.utf8), Array(challenge.utf8))
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default: return false
        }
    }
}
