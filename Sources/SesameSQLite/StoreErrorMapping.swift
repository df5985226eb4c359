import CSQLite
import SesameStore

/// Turns SQLite result codes into `StoreError`: a UNIQUE or PRIMARY KEY violation becomes
/// `conflict` naming the rule (the same names `InMemoryStore` uses); anything else `unavailable`.
enum StoreErrorMapping {
    /// Extended result codes (C macros built with `|`, which Swift does not import).
    static let constraintPrimaryKey: Int32 = 19 | (6 << 8)
    static let constraintUnique: Int32 = 19 | (8 << 8)

    /// The column lists SQLite names in "UNIQUE constraint failed: …", and the rule each stands for.
    static let conflictNames: [String: String] = [
        "tenants.id": "tenant id",
        "tenant_hosts.host": "tenant host",
        "clients.tenant_id, clients.id": "client id",
        "connections.tenant_id, connections.id": "connection id",
        "connections.tenant_id, connections.name": "connection name",
        "resource_servers.tenant_id, resource_servers.id": "resource server id",
        "resource_servers.tenant_id, resource_servers.identifier": "resource server identifier",
        "users.tenant_id, users.id": "user id",
        "users.tenant_id, users.user_handle": "user user_handle",
        "users.tenant_id, users.connection_id, users.email_lower": "user email",
        "users.tenant_id, users.connection_id, users.phone_number": "user phone_number",
        "users.tenant_id, users.connection_id, users.username_lower": "user username",
        "passkeys.tenant_id, passkeys.id": "passkey id",
        "passkeys.tenant_id, passkeys.credential_id": "passkey credential_id",
        "signing_keys.tenant_id, signing_keys.id": "signing key id",
        "refresh_tokens.tenant_id, refresh_tokens.id": "refresh token id",
        "refresh_tokens.token_hash": "refresh token token_hash",
        "auth_events.tenant_id, auth_events.id": "auth event id",
    ]

    /// The error for result code `code` on connection `db`.
    static func error(db: OpaquePointer?, code: Int32) -> StoreError {
        let extended = db.map { sqlite3_extended_errcode($0) } ?? code
        let message =
            db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        if extended == constraintUnique || extended == constraintPrimaryKey {
            let prefix = "UNIQUE constraint failed: "
            if message.hasPrefix(prefix), let name = conflictNames[String(message.dropFirst(prefix.count))] {
                return .conflict(name)
            }
            return .conflict(message)
        }
        return .unavailable("\(message) (SQLite \(extended))")
    }
}
