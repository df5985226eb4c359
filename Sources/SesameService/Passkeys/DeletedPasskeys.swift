import Foundation
import SesameCrypto
import SesameStore

/// The credential ids of passkeys this tenant deleted, remembered for the tenant's
/// `deleted_passkey_retention_days` (90 unless set). A sign-in with one of them is answered with
/// the RP ID and the id, so the page or app tells the authenticator to forget it
/// (`signalUnknownCredential`). A credential id the tenant never registered gets the neutral error
/// and no signal: another deployment on the same RP ID (a staging server, a demo on another port,
/// a restored backup) must never make password managers delete its users' passkeys.
///
/// Kept in the auth-session table under a hash of the tenant and the id, in their own domain, with
/// the retention as their lifetime (the sweep of expired sessions drops them).
enum DeletedPasskeys {
    static let tag = TicketKind.deletedPasskey.rawValue

    static func key(tenantID: String, credentialID: [UInt8]) -> [UInt8] {
        Digest.sha256(Array("sesame-deleted-passkey\u{0}\(tenantID)\u{0}".utf8) + credentialID)
    }

    /// Remembers `passkeys` as deleted, in the transaction that deletes them.
    static func remember(
        _ passkeys: [PasskeyRecord], tenant: TenantRecord, now: Date, in transaction: any StoreTransaction
    ) throws {
        let days = tenant.deletedPasskeyRetentionDays
        guard days > 0 else { return }
        for passkey in passkeys {
            let record = AuthSessionRecord(
                handleHash: key(tenantID: tenant.id, credentialID: passkey.credentialID), tenantID: tenant.id,
                requester: "deleted-passkey:\(tenant.id)", expiresAt: now + TimeInterval(days) * 86_400,
                payload: [tag])
            _ = try transaction.authSessions.consume(handleHash: record.handleHash)
            _ = try transaction.authSessions.insert(record, maxPerRequester: .max, now: now)
        }
    }

    /// Whether the tenant deleted a passkey with `credentialID` within its retention.
    static func wasDeleted(
        credentialID: [UInt8], tenant: TenantRecord, now: Date, in transaction: any StoreTransaction
    ) throws -> Bool {
        guard
            let record = try transaction.authSessions.get(
                handleHash: key(tenantID: tenant.id, credentialID: credentialID))
        else { return false }
        return record.tenantID == tenant.id && record.expiresAt > now && record.payload == [tag]
    }
}
