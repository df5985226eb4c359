import SesameSQL
import SesameStore

/// One PostgreSQL migration.
enum PostgresMigration: Sendable {
    /// SQL statements.
    case sql(String)
    /// A change to stored records that SQL cannot express.
    case records(@Sendable (PostgresConnection) throws -> Void)
}

/// The PostgreSQL schema, as numbered migrations (`all[n - 1]` is migration n), applied at open in
/// one transaction under an advisory lock, so several processes can start at once. Never edit a
/// shipped migration; append.
///
/// The tables are SQLite's, described once for both (`SQLSchema`, in SesameSQL) and rendered in
/// PostgreSQL's types; every unique rule is a named constraint, mapped to `UniqueRule`.
enum PostgresMigrations {
    /// The advisory lock key migrations run under ("sesame" in ASCII).
    static let lockKey: Int64 = 0x73_65_73_61_6D_65

    static let all: [PostgresMigration] = [
        // 1: the schema of SQLite migrations 1–8.
        schema(
            [SQLSchema.firstRelease] + SQLSchema.refreshTokenPasskey
                + [SQLSchema.resourceServers, SQLSchema.dpopProofs, SQLSchema.authSessions]
                + SQLSchema.configurationGeneration),
        // 2: SQLite 9, the hot records' changing fields as columns of their own.
        schema(SQLSchema.hotColumns),
        // 3: SQLite 10, their values, and every hot record rewritten in the binary form.
        .records { try HotRecordColumns.migrate($0) },
        // 4: SQLite 11, the configuration records rewritten in the binary form.
        .records { try StoredRecord.rewriteConfiguration($0) },
        // 5: SQLite 12, attempt counters and the outbox.
        schema([SQLSchema.countersAndOutbox]),
        // 6: SQLite 13, the password and MFA scopes for every full management grant.
        .records {
            try StoredRecord.grantScopes(
                $0, toGrantsHolding: StoredRecord.scopesBeforeCreateUsers, StoredRecord.scopesOfPasswords)
        },
        // 7: SQLite 14, SSO sessions of the hosted pages.
        schema([SQLSchema.ssoSessions]),
        // 8: SQLite 15, legacy device keys and the auth events' daily roll-up.
        schema([SQLSchema.deviceKeysAndDailyCounts]),
        // 9: the roll-up rebuilt from the stored events, and read:stats for full management grants.
        .records {
            try StoredRecord.rebuildDailyCounts($0)
            try StoredRecord.grantScopes($0, toGrantsHolding: StoredRecord.scopesBeforeStats, ["read:stats"])
        },
        // 10: identities at other providers linked to users (Sign in with Apple, docs/account-upgrades.md).
        schema([SQLSchema.linkedIdentities]),
        // 11: SQLite 18, FIDO metadata (docs/mds.md).
        schema([SQLSchema.metadata]),
        // 12: the audit log (append-only; ids grow with time), and read:logs for full management grants.
        .records { connection in
            for statement in SQLSchema.auditEvents.statements(in: .postgres) {
                try connection.execute(statement)
            }
            try StoredRecord.grantScopes(connection, toGrantsHolding: StoredRecord.scopesBeforeLogs, ["read:logs"])
        },
        // 13: only a family's first refresh token in the user and passkey indexes.
        schema(SQLSchema.refreshFamilyHead),
        // 14: usernames compared in RFC 8265's UsernameCaseMapped profile (width mapping too).
        .records { try StoredRecord.mapUsernames($0) },
    ]

    /// A migration of schema steps described once for both backends (`SQLSchema`).
    static func schema(_ steps: [SQLSchemaStep]) -> PostgresMigration { .sql(steps.script(in: .postgres)) }

    /// Each named unique constraint and the rule it holds (from `UniqueRule.sqlKey`, which
    /// SQLite's column lists come from too).
    static var uniqueRules: [String: UniqueRule] { UniqueRule.postgresConstraints }
}
