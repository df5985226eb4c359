import SesameStore

/// Where each `UniqueRule` lives in the SQL schemas: the table and the columns its unique index or
/// key covers, which SQLite and PostgreSQL declare alike, and PostgreSQL's name for the constraint.
/// Both backends' conflict maps are derived from this one description (`sqliteConflicts`,
/// `postgresConstraints`), so a rule cannot be mapped in one and forgotten in the other.
public struct SQLUniqueKey: Sendable, Hashable {
    public let table: String
    public let columns: [String]
    /// PostgreSQL's constraint name: `<table>_pkey` for a primary key, else `<table>_<name>_key`.
    public let postgresConstraint: String

    /// The primary key of `table` over `columns`.
    static func primary(_ table: String, _ columns: String...) -> SQLUniqueKey {
        SQLUniqueKey(table: table, columns: columns, postgresConstraint: "\(table)_pkey")
    }

    /// A unique constraint named `<table>_<name>_key`.
    static func unique(_ table: String, _ name: String, _ columns: String...) -> SQLUniqueKey {
        SQLUniqueKey(table: table, columns: columns, postgresConstraint: "\(table)_\(name)_key")
    }

    /// How SQLite names the columns in "UNIQUE constraint failed: …".
    public var sqliteColumns: String { columns.map { "\(table).\($0)" }.joined(separator: ", ") }
}

extension UniqueRule {
    /// Where the rule lives in the SQL schemas.
    public var sqlKey: SQLUniqueKey {
        switch self {
        case .tenantID: .primary("tenants", "id")
        case .tenantHost: .primary("tenant_hosts", "host")
        case .clientID: .primary("clients", "tenant_id", "id")
        case .connectionID: .primary("connections", "tenant_id", "id")
        case .connectionName: .unique("connections", "name", "tenant_id", "name")
        case .resourceServerID: .primary("resource_servers", "tenant_id", "id")
        case .resourceServerIdentifier: .unique("resource_servers", "identifier", "tenant_id", "identifier")
        case .userID: .primary("users", "tenant_id", "id")
        case .userHandle: .unique("users", "user_handle", "tenant_id", "user_handle")
        case .userEmail: .unique("users", "email", "tenant_id", "connection_id", "email_lower")
        case .userPhoneNumber: .unique("users", "phone_number", "tenant_id", "connection_id", "phone_number")
        case .userUsername: .unique("users", "username", "tenant_id", "connection_id", "username_lower")
        case .passkeyID: .primary("passkeys", "tenant_id", "id")
        case .passkeyCredentialID: .unique("passkeys", "credential_id", "tenant_id", "credential_id")
        case .signingKeyID: .primary("signing_keys", "tenant_id", "id")
        case .refreshTokenID: .primary("refresh_tokens", "tenant_id", "id")
        case .refreshTokenHash: .unique("refresh_tokens", "token_hash", "token_hash")
        case .authEventID: .primary("auth_events", "tenant_id", "id")
        case .outboxMessageID: .primary("outbox", "tenant_id", "id")
        case .ssoSessionID: .primary("sso_sessions", "tenant_id", "id")
        case .ssoSessionCookie: .unique("sso_sessions", "cookie_hash", "cookie_hash")
        case .deviceKeyID: .primary("device_keys", "tenant_id", "id")
        case .linkedIdentity: .primary("linked_identities", "tenant_id", "connection_id", "subject")
        case .authenticatorMetadata: .primary("authenticator_metadata", "lookup_key")
        case .auditEventID: .primary("audit_events", "tenant_id", "id")
        }
    }

    /// SQLite's column lists ("UNIQUE constraint failed: …") and the rule each stands for.
    public static let sqliteConflicts: [String: UniqueRule] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0.sqlKey.sqliteColumns, $0) })

    /// PostgreSQL's constraint names and the rule each holds.
    public static let postgresConstraints: [String: UniqueRule] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0.sqlKey.postgresConstraint, $0) })
}
