internal import CSQLite
import SesameSQL
import SesameStore

/// Turns SQLite result codes into `StoreError`: a UNIQUE or PRIMARY KEY violation becomes
/// `conflict` naming the rule (the same names `InMemoryStore` uses); anything else `unavailable`.
enum StoreErrorMapping {
    /// Extended result codes (C macros built with `|`, which Swift does not import).
    static let constraintPrimaryKey: Int32 = 19 | (6 << 8)
    static let constraintUnique: Int32 = 19 | (8 << 8)

    /// The column lists SQLite names in "UNIQUE constraint failed: …", and the rule each stands for.
    static let conflictNames: [String: UniqueRule] = [
        "tenants.id": .tenantID,
        "tenant_hosts.host": .tenantHost,
        "clients.tenant_id, clients.id": .clientID,
        "connections.tenant_id, connections.id": .connectionID,
        "connections.tenant_id, connections.name": .connectionName,
        "resource_servers.tenant_id, resource_servers.id": .resourceServerID,
        "resource_servers.tenant_id, resource_servers.identifier": .resourceServerIdentifier,
        "users.tenant_id, users.id": .userID,
        "users.tenant_id, users.user_handle": .userHandle,
        "users.tenant_id, users.connection_id, users.email_lower": .userEmail,
        "users.tenant_id, users.connection_id, users.phone_number": .userPhoneNumber,
        "users.tenant_id, users.connection_id, users.username_lower": .userUsername,
        "passkeys.tenant_id, passkeys.id": .passkeyID,
        "passkeys.tenant_id, passkeys.credential_id": .passkeyCredentialID,
        "signing_keys.tenant_id, signing_keys.id": .signingKeyID,
        "refresh_tokens.tenant_id, refresh_tokens.id": .refreshTokenID,
        "refresh_tokens.token_hash": .refreshTokenHash,
        "auth_events.tenant_id, auth_events.id": .authEventID,
        "outbox.tenant_id, outbox.id": .outboxMessageID,
        "sso_sessions.tenant_id, sso_sessions.id": .ssoSessionID,
        "sso_sessions.cookie_hash": .ssoSessionCookie,
        "device_keys.tenant_id, device_keys.id": .deviceKeyID,
        "linked_identities.tenant_id, linked_identities.connection_id, linked_identities.subject": .linkedIdentity,
        "authenticator_metadata.lookup_key": .authenticatorMetadata,
        "audit_events.tenant_id, audit_events.id": .auditEventID,
    ]

    /// The error for result code `code` on connection `db`.
    static func error(db: OpaquePointer?, code: Int32) -> StoreError {
        let extended = db.map { sqlite3_extended_errcode($0) } ?? code
        let message =
            db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        if extended == constraintUnique || extended == constraintPrimaryKey {
            let prefix = "UNIQUE constraint failed: "
            if message.hasPrefix(prefix), let rule = conflictNames[String(message.dropFirst(prefix.count))] {
                return .conflict(rule)
            }
            // A unique index the contract does not know: a schema bug, never the caller's conflict.
            return .unavailable("unexpected constraint violation: \(message)")
        }
        return .unavailable("\(message) (SQLite \(extended))")
    }
}
