import SesameSQL
import SesameStore

/// One schema or data migration.
enum Migration: Sendable {
    /// SQL statements.
    case sql(String)
    /// A change to stored records that SQL cannot express, run on the writer connection.
    case records(@Sendable (SQLiteConnection) throws -> Void)
}

/// The schema, as numbered migrations: `all[n - 1]` is migration n. Applied in order at open, in
/// one transaction, each recorded in `schema_migrations`. Never edit a shipped migration; append.
/// The tables are described once for both backends (`SQLSchema`, in SesameSQL); the fields a login
/// or a refresh changes are columns of their own (migration 9) and win over the copies in `data`.
enum Migrations {
    static let all: [Migration] = [
        // 1: the first schema.
        schema(SQLSchema.firstRelease),
        // 2: the client-key scopes. A grant that held every Management API scope of the first
        // release (a full management client, such as the one `sesame init` makes) also gets
        // read:client_keys and update:client_keys, which secret rotation now needs.
        .records {
            try grantScopes($0, toGrantsHolding: firstReleaseScopes, ["read:client_keys", "update:client_keys"])
        },
        // 3: which passkey a refresh family came from, so deleting the passkey revokes it.
        schema(SQLSchema.refreshTokenPasskey),
        // 4: APIs (Auth0's resource servers), found by their identifier (the audience).
        schema(SQLSchema.resourceServers),
        // 5: the resource-server scopes, for grants that held every Management API scope before.
        .records {
            try grantScopes(
                $0, toGrantsHolding: firstReleaseScopes.union(["read:client_keys", "update:client_keys"]),
                resourceServerScopes)
        },
        // 6: seen DPoP proofs (a hash of key and jti) until they expire.
        schema(SQLSchema.dpopProofs),
        // 7: pending passkey ceremonies, for deployments that keep them in the store.
        schema(SQLSchema.authSessions),
        // 8: the configuration generation, raised by triggers in the writing transaction itself,
        // so no write path can forget it; every process's cache compares it on each read.
        schema(SQLSchema.configurationGeneration),
        // 9: the hot records' changing fields as columns of their own, so a login or a refresh
        // changes only what it changes (the counter, a time, used or revoked).
        schema(SQLSchema.hotColumns),
        // 10: the values for those columns, and every hot record rewritten in the binary form.
        .records { try HotRecordColumns.migrate($0) },
        // 11: the configuration records (tenants, clients, connections, APIs, signing keys)
        // rewritten in the binary form too, so no stored row needs Foundation's JSON decoder.
        .records { try StoredRecord.rewriteConfiguration($0) },
        // 12: attempt counters (brute-force protection, SMS and code limits) and the outbox.
        schema(SQLSchema.countersAndOutbox),
        // 13: the password and MFA scopes for every grant that held all the scopes before it existed.
        .records {
            try StoredRecord.grantScopes(
                $0, toGrantsHolding: StoredRecord.scopesBeforeCreateUsers, StoredRecord.scopesOfPasswords)
        },
        // 14: SSO sessions of the hosted pages.
        schema(SQLSchema.ssoSessions),
        // 15: legacy device keys and the auth events' daily roll-up (the adoption statistics),
        // rebuilt from the events already stored.
        schema(SQLSchema.deviceKeysAndDailyCounts),
        // 16: the roll-up rebuilt from the stored events, and read:stats for full management grants.
        .records {
            try StoredRecord.rebuildDailyCounts($0)
            try StoredRecord.grantScopes($0, toGrantsHolding: StoredRecord.scopesBeforeStats, ["read:stats"])
        },
        // 17: identities at other providers linked to users (Sign in with Apple, docs/account-upgrades.md).
        schema(SQLSchema.linkedIdentities),
        // 18: FIDO metadata (docs/mds.md), one set for the installation.
        schema(SQLSchema.metadata),
        // 19: the audit log (append-only; ids grow with time), and read:logs for full management grants.
        .records { connection in
            for statement in SQLSchema.auditEvents.statements(in: .sqlite) {
                try connection.execute(statement)
            }
            try StoredRecord.grantScopes(connection, toGrantsHolding: StoredRecord.scopesBeforeLogs, ["read:logs"])
        },
        // 20: only a family's first refresh token in the user and passkey indexes.
        schema(SQLSchema.refreshFamilyHead),
        // 21: usernames compared in RFC 8265's UsernameCaseMapped profile (width mapping too).
        .records { try StoredRecord.mapUsernames($0) },
    ]

    /// A migration of schema steps described once for both backends (`SQLSchema`).
    static func schema(_ steps: SQLSchemaStep...) -> Migration { schema(steps) }

    static func schema(_ steps: [SQLSchemaStep]) -> Migration { .sql(steps.script(in: .sqlite)) }

    /// The Management API scopes migration 5 adds.
    static let resourceServerScopes = [
        "read:resource_servers", "create:resource_servers", "update:resource_servers", "delete:resource_servers",
    ]

    /// The 19 Management API scopes of the first release.
    static let firstReleaseScopes: Set<String> = [
        "read:clients", "create:clients", "update:clients", "delete:clients", "read:connections",
        "create:connections", "update:connections", "delete:connections", "read:users", "update:users",
        "delete:users", "read:authentication_methods", "delete:authentication_methods", "read:client_grants",
        "create:client_grants", "update:client_grants", "delete:client_grants", "read:tenant_settings",
        "update:tenant_settings",
    ]

    /// A data step: every client grant holding all of `held` also gets `added` (`StoredRecord.grantScopes`).
    static func grantScopes(_ connection: SQLiteConnection, toGrantsHolding held: Set<String>, _ added: [String]) throws
    {
        try StoredRecord.grantScopes(connection, toGrantsHolding: held, added)
    }
}
