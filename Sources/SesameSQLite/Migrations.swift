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
///
/// Every aggregate has its indexed and unique columns as real columns and the whole record in
/// `data` (the binary record form for passkeys, users and refresh tokens, JSON for the rest); the
/// fields a login or a refresh changes are columns of their own (migration 9) and win over the
/// copies in `data`; `version` is the record's schema version. Times used for ordering are stored as
/// the Double seconds `Date` holds (since 2001-01-01), the same value the JSON carries.
enum Migrations {
    static let all: [Migration] = [
        .sql(
            // 1: the first schema.
            """
            CREATE TABLE tenants (
                id TEXT NOT NULL PRIMARY KEY,
                created_at REAL NOT NULL,
                version INTEGER NOT NULL,
                data BLOB NOT NULL
            );
            CREATE TABLE tenant_hosts (
                host TEXT NOT NULL PRIMARY KEY,
                tenant_id TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE
            ) WITHOUT ROWID;
            CREATE INDEX tenant_hosts_tenant ON tenant_hosts (tenant_id);

            CREATE TABLE clients (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                created_at REAL NOT NULL,
                version INTEGER NOT NULL,
                data BLOB NOT NULL,
                PRIMARY KEY (tenant_id, id)
            );
            CREATE INDEX clients_created ON clients (tenant_id, created_at, id);

            CREATE TABLE connections (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                name TEXT NOT NULL,
                created_at REAL NOT NULL,
                version INTEGER NOT NULL,
                data BLOB NOT NULL,
                PRIMARY KEY (tenant_id, id),
                UNIQUE (tenant_id, name)
            );

            CREATE TABLE users (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                connection_id TEXT NOT NULL,
                user_handle BLOB NOT NULL,
                email_lower TEXT,
                phone_number TEXT,
                username_lower TEXT,
                name_lower TEXT,
                id_lower TEXT NOT NULL,
                created_at REAL NOT NULL,
                version INTEGER NOT NULL,
                data BLOB NOT NULL,
                PRIMARY KEY (tenant_id, id),
                UNIQUE (tenant_id, user_handle),
                UNIQUE (tenant_id, connection_id, email_lower),
                UNIQUE (tenant_id, connection_id, phone_number),
                UNIQUE (tenant_id, connection_id, username_lower)
            );
            CREATE INDEX users_created ON users (tenant_id, created_at DESC, id);

            CREATE TABLE passkeys (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                credential_id BLOB NOT NULL,
                created_at REAL NOT NULL,
                version INTEGER NOT NULL,
                data BLOB NOT NULL,
                PRIMARY KEY (tenant_id, id),
                UNIQUE (tenant_id, credential_id)
            );
            CREATE INDEX passkeys_user ON passkeys (tenant_id, user_id);

            CREATE TABLE signing_keys (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                created_at REAL NOT NULL,
                version INTEGER NOT NULL,
                data BLOB NOT NULL,
                PRIMARY KEY (tenant_id, id)
            );

            CREATE TABLE refresh_tokens (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                token_hash BLOB NOT NULL UNIQUE,
                family_id TEXT NOT NULL,
                client_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                created_at REAL NOT NULL,
                version INTEGER NOT NULL,
                data BLOB NOT NULL,
                PRIMARY KEY (tenant_id, id)
            );
            CREATE INDEX refresh_tokens_family ON refresh_tokens (tenant_id, family_id);
            CREATE INDEX refresh_tokens_user ON refresh_tokens (tenant_id, user_id);

            CREATE TABLE auth_events (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                at REAL NOT NULL,
                data BLOB NOT NULL,
                PRIMARY KEY (tenant_id, id)
            );
            CREATE INDEX auth_events_at ON auth_events (tenant_id, at, id);
            """),
        // 2: the client-key scopes. A grant that held every Management API scope of the first
        // release (a full management client, such as the one `sesame init` makes) also gets
        // read:client_keys and update:client_keys, which secret rotation now needs.
        .records {
            try grantScopes($0, toGrantsHolding: firstReleaseScopes, ["read:client_keys", "update:client_keys"])
        },
        // 3: which passkey a refresh family came from, so deleting the passkey revokes it.
        .sql(
            """
            ALTER TABLE refresh_tokens ADD COLUMN passkey_id TEXT;
            CREATE INDEX refresh_tokens_passkey ON refresh_tokens (tenant_id, passkey_id);
            """),
        // 4: APIs (Auth0's resource servers), found by their identifier (the audience).
        .sql(
            """
            CREATE TABLE resource_servers (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                identifier TEXT NOT NULL,
                created_at REAL NOT NULL,
                version INTEGER NOT NULL,
                data BLOB NOT NULL,
                PRIMARY KEY (tenant_id, id),
                UNIQUE (tenant_id, identifier)
            );
            CREATE INDEX resource_servers_created ON resource_servers (tenant_id, created_at, id);
            """),
        // 5: the resource-server scopes, for grants that held every Management API scope before.
        .records {
            try grantScopes(
                $0, toGrantsHolding: firstReleaseScopes.union(["read:client_keys", "update:client_keys"]),
                resourceServerScopes)
        },
        // 6: seen DPoP proofs (a hash of key and jti) until they expire.
        .sql(
            """
            CREATE TABLE dpop_proofs (
                tenant_id TEXT NOT NULL,
                proof_key BLOB NOT NULL,
                expires_at REAL NOT NULL,
                PRIMARY KEY (tenant_id, proof_key)
            ) WITHOUT ROWID;
            CREATE INDEX dpop_proofs_expiry ON dpop_proofs (expires_at);
            """),
        // 7: pending passkey ceremonies, for deployments that keep them in the store.
        .sql(
            """
            CREATE TABLE auth_sessions (
                handle_hash BLOB NOT NULL PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                requester TEXT NOT NULL,
                expires_at REAL NOT NULL,
                payload BLOB NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX auth_sessions_requester ON auth_sessions (requester, expires_at);
            CREATE INDEX auth_sessions_expiry ON auth_sessions (expires_at);
            """),
        // 8: the configuration generation, raised by triggers in the writing transaction itself,
        // so no write path can forget it; every process's cache compares it on each read.
        .sql(
            """
            CREATE TABLE configuration_generation (
                id INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
                value INTEGER NOT NULL
            );
            INSERT INTO configuration_generation (id, value) VALUES (1, 0);
            CREATE TRIGGER tenants_insert_generation AFTER INSERT ON tenants
            BEGIN UPDATE configuration_generation SET value = value + 1; END;
            CREATE TRIGGER tenants_update_generation AFTER UPDATE ON tenants
            BEGIN UPDATE configuration_generation SET value = value + 1; END;
            CREATE TRIGGER tenants_delete_generation AFTER DELETE ON tenants
            BEGIN UPDATE configuration_generation SET value = value + 1; END;
            CREATE TRIGGER clients_insert_generation AFTER INSERT ON clients
            BEGIN UPDATE configuration_generation SET value = value + 1; END;
            CREATE TRIGGER clients_update_generation AFTER UPDATE ON clients
            BEGIN UPDATE configuration_generation SET value = value + 1; END;
            CREATE TRIGGER clients_delete_generation AFTER DELETE ON clients
            BEGIN UPDATE configuration_generation SET value = value + 1; END;
            CREATE TRIGGER connections_insert_generation AFTER INSERT ON connections
            BEGIN UPDATE configuration_generation SET value = value + 1; END;
            CREATE TRIGGER connections_update_generation AFTER UPDATE ON connections
            BEGIN UPDATE configuration_generation SET value = value + 1; END;
            CREATE TRIGGER connections_delete_generation AFTER DELETE ON connections
            BEGIN UPDATE configuration_generation SET value = value + 1; END;
            CREATE TRIGGER resource_servers_insert_generation AFTER INSERT ON resource_servers
            BEGIN UPDATE configuration_generation SET value = value + 1; END;
            CREATE TRIGGER resource_servers_update_generation AFTER UPDATE ON resource_servers
            BEGIN UPDATE configuration_generation SET value = value + 1; END;
            CREATE TRIGGER resource_servers_delete_generation AFTER DELETE ON resource_servers
            BEGIN UPDATE configuration_generation SET value = value + 1; END;
            """),
        // 9: the hot records' changing fields as columns of their own, so a login or a refresh
        // changes only what it changes (the counter, a time, used or revoked).
        .sql(
            """
            ALTER TABLE passkeys ADD COLUMN sign_count INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE passkeys ADD COLUMN backup_state INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE passkeys ADD COLUMN last_used_at REAL;
            ALTER TABLE users ADD COLUMN last_login_at REAL;
            ALTER TABLE refresh_tokens ADD COLUMN used_at REAL;
            ALTER TABLE refresh_tokens ADD COLUMN revoked_at REAL;
            """),
        // 10: the values for those columns, and every hot record rewritten in the binary form.
        .records { try HotRecordColumns.migrate($0) },
        // 11: the configuration records (tenants, clients, connections, APIs, signing keys)
        // rewritten in the binary form too, so no stored row needs Foundation's JSON decoder.
        .records { try StoredRecord.rewriteConfiguration($0) },
        // 12: attempt counters (brute-force protection, SMS and code limits) and the outbox.
        .sql(
            """
            CREATE TABLE attempt_counters (
                tenant_id TEXT NOT NULL,
                counter_key BLOB NOT NULL,
                attempts INTEGER NOT NULL,
                window_ends_at REAL NOT NULL,
                PRIMARY KEY (tenant_id, counter_key)
            ) WITHOUT ROWID;
            CREATE INDEX attempt_counters_expiry ON attempt_counters (window_ends_at);
            CREATE TABLE outbox (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                created_at REAL NOT NULL,
                data BLOB NOT NULL,
                PRIMARY KEY (tenant_id, id)
            ) WITHOUT ROWID;
            CREATE INDEX outbox_created ON outbox (tenant_id, created_at, id);
            """),
        // 13: the password and MFA scopes for every grant that held all the scopes before it existed.
        .records {
            try StoredRecord.grantScopes(
                $0, toGrantsHolding: StoredRecord.scopesBeforeCreateUsers, StoredRecord.scopesOfPasswords)
        },
        // 14: SSO sessions of the hosted pages.
        .sql(
            """
            CREATE TABLE sso_sessions (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                cookie_hash BLOB NOT NULL UNIQUE,
                user_id TEXT NOT NULL,
                created_at REAL NOT NULL,
                ends_at REAL NOT NULL,
                data BLOB NOT NULL,
                PRIMARY KEY (tenant_id, id)
            ) WITHOUT ROWID;
            CREATE INDEX sso_sessions_user ON sso_sessions (tenant_id, user_id);
            CREATE INDEX sso_sessions_ends ON sso_sessions (ends_at);
            """),
        // 15: legacy device keys and the auth events' daily roll-up (the adoption statistics),
        // rebuilt from the events already stored.
        .sql(
            """
            CREATE TABLE device_keys (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                state TEXT NOT NULL,
                created_at REAL NOT NULL,
                data BLOB NOT NULL,
                PRIMARY KEY (tenant_id, id)
            ) WITHOUT ROWID;
            CREATE INDEX device_keys_user ON device_keys (tenant_id, user_id, state);
            CREATE TABLE auth_daily_counts (
                tenant_id TEXT NOT NULL,
                day TEXT NOT NULL,
                client_id TEXT NOT NULL,
                connection_id TEXT NOT NULL,
                method TEXT NOT NULL,
                passkey_kind TEXT NOT NULL,
                aaguid TEXT NOT NULL,
                platform TEXT NOT NULL,
                count INTEGER NOT NULL,
                PRIMARY KEY (tenant_id, day, method, passkey_kind, aaguid, platform, client_id, connection_id)
            ) WITHOUT ROWID;
            """),
        // 16: the roll-up rebuilt from the stored events, and read:stats for full management grants.
        .records {
            try StoredRecord.rebuildDailyCounts($0)
            try StoredRecord.grantScopes($0, toGrantsHolding: StoredRecord.scopesBeforeStats, ["read:stats"])
        },  // 17: identities at other providers linked to users (Sign in with Apple, docs/account-upgrades.md).
        .sql(
            """
            CREATE TABLE linked_identities (
                tenant_id TEXT NOT NULL,
                connection_id TEXT NOT NULL,
                subject TEXT NOT NULL,
                user_id TEXT NOT NULL,
                created_at REAL NOT NULL,
                data BLOB NOT NULL,
                PRIMARY KEY (tenant_id, connection_id, subject)
            ) WITHOUT ROWID;
            CREATE INDEX linked_identities_user ON linked_identities (tenant_id, user_id);
            """),
        // FIDO metadata (docs/mds.md): the imported BLOB, and its entries under each AAGUID
        // ("aaguid:…") and attestation key identifier ("key:…"). One set for the installation.
        .sql(
            """
            CREATE TABLE metadata_blob (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                serial INTEGER NOT NULL,
                data BLOB NOT NULL
            );
            CREATE TABLE authenticator_metadata (
                lookup_key TEXT NOT NULL PRIMARY KEY,
                data BLOB NOT NULL
            ) WITHOUT ROWID;
            """),
        // 19: the audit log (append-only; ids grow with time), and read:logs for full management grants.
        .records { connection in
            for statement in StoredRecord.auditTableStatements(binary: "BLOB", real: "REAL", withoutRowID: true) {
                try connection.execute(statement)
            }
            try StoredRecord.grantScopes(connection, toGrantsHolding: StoredRecord.scopesBeforeLogs, ["read:logs"])
        },
        // 20: only a family's first refresh token in the user and passkey indexes.
        .sql(StoredRecord.refreshFamilyHeadScript),
        // 21: usernames compared in RFC 8265's UsernameCaseMapped profile (width mapping too).
        .records { try StoredRecord.mapUsernames($0) },
    ]

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
