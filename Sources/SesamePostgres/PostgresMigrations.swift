import SesameSQL
import SesameStore

/// The PostgreSQL schema, as numbered migrations (`all[n - 1]` is migration n), applied at open in
/// one transaction under an advisory lock, so several processes can start at once. Never edit a
/// shipped migration; append.
///
/// Tables and columns mirror SQLite's (docs/ARCHITECTURE.md): indexed and unique values as
/// columns, the whole record in `data` (BYTEA: the binary record form for passkeys, users and
/// refresh tokens, JSON for the rest), the fields a login or refresh changes as columns of their
/// own, times as DOUBLE PRECISION seconds since 2001, the value `Date` holds. Every unique rule is a named constraint, mapped to `UniqueRule`.
/// One PostgreSQL migration.
enum PostgresMigration: Sendable {
    /// SQL statements.
    case sql(String)
    /// A change to stored records that SQL cannot express.
    case records(@Sendable (PostgresConnection) throws -> Void)
}

enum PostgresMigrations {
    /// The advisory lock key migrations run under ("sesame" in ASCII).
    static let lockKey: Int64 = 0x73_65_73_61_6D_65

    static let all: [PostgresMigration] = [
        // 1: the schema of SQLite migrations 1–8.
        .sql(
            """
            CREATE TABLE tenants (
                id TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                version BIGINT NOT NULL,
                data BYTEA NOT NULL,
                CONSTRAINT tenants_pkey PRIMARY KEY (id)
            );
            CREATE TABLE tenant_hosts (
                host TEXT NOT NULL,
                tenant_id TEXT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
                CONSTRAINT tenant_hosts_pkey PRIMARY KEY (host)
            );
            CREATE INDEX tenant_hosts_tenant ON tenant_hosts (tenant_id);

            CREATE TABLE clients (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                version BIGINT NOT NULL,
                data BYTEA NOT NULL,
                CONSTRAINT clients_pkey PRIMARY KEY (tenant_id, id)
            );
            CREATE INDEX clients_created ON clients (tenant_id, created_at, id);

            CREATE TABLE connections (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                name TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                version BIGINT NOT NULL,
                data BYTEA NOT NULL,
                CONSTRAINT connections_pkey PRIMARY KEY (tenant_id, id),
                CONSTRAINT connections_name_key UNIQUE (tenant_id, name)
            );

            CREATE TABLE resource_servers (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                identifier TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                version BIGINT NOT NULL,
                data BYTEA NOT NULL,
                CONSTRAINT resource_servers_pkey PRIMARY KEY (tenant_id, id),
                CONSTRAINT resource_servers_identifier_key UNIQUE (tenant_id, identifier)
            );
            CREATE INDEX resource_servers_created ON resource_servers (tenant_id, created_at, id);

            CREATE TABLE users (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                connection_id TEXT NOT NULL,
                user_handle BYTEA NOT NULL,
                email_lower TEXT,
                phone_number TEXT,
                username_lower TEXT,
                name_lower TEXT,
                id_lower TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                version BIGINT NOT NULL,
                data BYTEA NOT NULL,
                CONSTRAINT users_pkey PRIMARY KEY (tenant_id, id),
                CONSTRAINT users_user_handle_key UNIQUE (tenant_id, user_handle),
                CONSTRAINT users_email_key UNIQUE (tenant_id, connection_id, email_lower),
                CONSTRAINT users_phone_number_key UNIQUE (tenant_id, connection_id, phone_number),
                CONSTRAINT users_username_key UNIQUE (tenant_id, connection_id, username_lower)
            );
            CREATE INDEX users_created ON users (tenant_id, created_at DESC, id);

            CREATE TABLE passkeys (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                credential_id BYTEA NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                version BIGINT NOT NULL,
                data BYTEA NOT NULL,
                CONSTRAINT passkeys_pkey PRIMARY KEY (tenant_id, id),
                CONSTRAINT passkeys_credential_id_key UNIQUE (tenant_id, credential_id)
            );
            CREATE INDEX passkeys_user ON passkeys (tenant_id, user_id);

            CREATE TABLE signing_keys (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                version BIGINT NOT NULL,
                data BYTEA NOT NULL,
                CONSTRAINT signing_keys_pkey PRIMARY KEY (tenant_id, id)
            );

            CREATE TABLE refresh_tokens (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                token_hash BYTEA NOT NULL,
                family_id TEXT NOT NULL,
                client_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                passkey_id TEXT,
                created_at DOUBLE PRECISION NOT NULL,
                version BIGINT NOT NULL,
                data BYTEA NOT NULL,
                CONSTRAINT refresh_tokens_pkey PRIMARY KEY (tenant_id, id),
                CONSTRAINT refresh_tokens_token_hash_key UNIQUE (token_hash)
            );
            CREATE INDEX refresh_tokens_family ON refresh_tokens (tenant_id, family_id);
            CREATE INDEX refresh_tokens_user ON refresh_tokens (tenant_id, user_id);
            CREATE INDEX refresh_tokens_passkey ON refresh_tokens (tenant_id, passkey_id);

            CREATE TABLE auth_events (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                data BYTEA NOT NULL,
                CONSTRAINT auth_events_pkey PRIMARY KEY (tenant_id, id)
            );
            CREATE INDEX auth_events_at ON auth_events (tenant_id, at, id);

            CREATE TABLE dpop_proofs (
                tenant_id TEXT NOT NULL,
                proof_key BYTEA NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (tenant_id, proof_key)
            );
            CREATE INDEX dpop_proofs_expiry ON dpop_proofs (expires_at);

            CREATE TABLE auth_sessions (
                handle_hash BYTEA NOT NULL PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                requester TEXT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                payload BYTEA NOT NULL
            );
            CREATE INDEX auth_sessions_requester ON auth_sessions (requester, expires_at);
            CREATE INDEX auth_sessions_expiry ON auth_sessions (expires_at);

            CREATE TABLE configuration_generation (
                id INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
                value BIGINT NOT NULL
            );
            INSERT INTO configuration_generation (id, value) VALUES (1, 0);
            CREATE FUNCTION raise_configuration_generation() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE configuration_generation SET value = value + 1 WHERE id = 1;
                RETURN NULL;
            END;
            $$;
            CREATE TRIGGER tenants_generation AFTER INSERT OR UPDATE OR DELETE ON tenants
                FOR EACH STATEMENT EXECUTE FUNCTION raise_configuration_generation();
            CREATE TRIGGER clients_generation AFTER INSERT OR UPDATE OR DELETE ON clients
                FOR EACH STATEMENT EXECUTE FUNCTION raise_configuration_generation();
            CREATE TRIGGER connections_generation AFTER INSERT OR UPDATE OR DELETE ON connections
                FOR EACH STATEMENT EXECUTE FUNCTION raise_configuration_generation();
            CREATE TRIGGER resource_servers_generation AFTER INSERT OR UPDATE OR DELETE ON resource_servers
                FOR EACH STATEMENT EXECUTE FUNCTION raise_configuration_generation();
            """),
        // 2: SQLite 9, the hot records' changing fields as columns of their own.
        .sql(
            """
            ALTER TABLE passkeys ADD COLUMN sign_count BIGINT NOT NULL DEFAULT 0;
            ALTER TABLE passkeys ADD COLUMN backup_state BIGINT NOT NULL DEFAULT 0;
            ALTER TABLE passkeys ADD COLUMN last_used_at DOUBLE PRECISION;
            ALTER TABLE users ADD COLUMN last_login_at DOUBLE PRECISION;
            ALTER TABLE refresh_tokens ADD COLUMN used_at DOUBLE PRECISION;
            ALTER TABLE refresh_tokens ADD COLUMN revoked_at DOUBLE PRECISION;
            """),
        // 3: SQLite 10, their values, and every hot record rewritten in the binary form.
        .records { try HotRecordColumns.migrate($0) },
        // 4: SQLite 11, the configuration records rewritten in the binary form.
        .records { try StoredRecord.rewriteConfiguration($0) },
        // 5: SQLite 12, attempt counters and the outbox.
        .sql(
            """
            CREATE TABLE attempt_counters (
                tenant_id TEXT NOT NULL,
                counter_key BYTEA NOT NULL,
                attempts BIGINT NOT NULL,
                window_ends_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (tenant_id, counter_key)
            );
            CREATE INDEX attempt_counters_expiry ON attempt_counters (window_ends_at);
            CREATE TABLE outbox (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                data BYTEA NOT NULL,
                CONSTRAINT outbox_pkey PRIMARY KEY (tenant_id, id)
            );
            CREATE INDEX outbox_created ON outbox (tenant_id, created_at, id);
            """),
        // 6: SQLite 13, the password and MFA scopes for every full management grant.
        .records {
            try StoredRecord.grantScopes(
                $0, toGrantsHolding: StoredRecord.scopesBeforeCreateUsers, StoredRecord.scopesOfPasswords)
        },
        // 7: SQLite 14, SSO sessions of the hosted pages.
        .sql(
            """
            CREATE TABLE sso_sessions (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                cookie_hash BYTEA NOT NULL,
                user_id TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                ends_at DOUBLE PRECISION NOT NULL,
                data BYTEA NOT NULL,
                CONSTRAINT sso_sessions_pkey PRIMARY KEY (tenant_id, id),
                CONSTRAINT sso_sessions_cookie_hash_key UNIQUE (cookie_hash)
            );
            CREATE INDEX sso_sessions_user ON sso_sessions (tenant_id, user_id);
            CREATE INDEX sso_sessions_ends ON sso_sessions (ends_at);
            """),
        // 8: SQLite 15, legacy device keys and the auth events' daily roll-up.
        .sql(
            """
            CREATE TABLE device_keys (
                tenant_id TEXT NOT NULL,
                id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                state TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                data BYTEA NOT NULL,
                CONSTRAINT device_keys_pkey PRIMARY KEY (tenant_id, id)
            );
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
                count BIGINT NOT NULL,
                CONSTRAINT auth_daily_counts_pkey
                    PRIMARY KEY (tenant_id, day, method, passkey_kind, aaguid, platform, client_id, connection_id)
            );
            """),
        // 9: the roll-up rebuilt from the stored events, and read:stats for full management grants.
        .records {
            try StoredRecord.rebuildDailyCounts($0)
            try StoredRecord.grantScopes($0, toGrantsHolding: StoredRecord.scopesBeforeStats, ["read:stats"])
        },  // 10: identities at other providers linked to users (Sign in with Apple, docs/account-upgrades.md).
        .sql(
            """
            CREATE TABLE linked_identities (
                tenant_id TEXT NOT NULL,
                connection_id TEXT NOT NULL,
                subject TEXT NOT NULL,
                user_id TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                data BYTEA NOT NULL,
                CONSTRAINT linked_identities_pkey PRIMARY KEY (tenant_id, connection_id, subject)
            );
            CREATE INDEX linked_identities_user ON linked_identities (tenant_id, user_id);
            """),
        // FIDO metadata (docs/mds.md): the imported BLOB, and its entries under each AAGUID
        // ("aaguid:…") and attestation key identifier ("key:…"). One set for the installation.
        .sql(
            """
            CREATE TABLE metadata_blob (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                serial BIGINT NOT NULL,
                data BYTEA NOT NULL
            );
            CREATE TABLE authenticator_metadata (
                lookup_key TEXT NOT NULL,
                data BYTEA NOT NULL,
                CONSTRAINT authenticator_metadata_pkey PRIMARY KEY (lookup_key)
            );
            """),
        // 12: the audit log (append-only; ids grow with time), and read:logs for full management grants.
        .records { connection in
            for statement in StoredRecord.auditTableStatements(
                binary: "BYTEA", real: "DOUBLE PRECISION", withoutRowID: false)
            {
                try connection.execute(statement)
            }
            try StoredRecord.grantScopes(connection, toGrantsHolding: StoredRecord.scopesBeforeLogs, ["read:logs"])
        },
        // 13: only a family's first refresh token in the user and passkey indexes.
        .sql(StoredRecord.refreshFamilyHeadScript),
        // 14: usernames compared in RFC 8265's UsernameCaseMapped profile (width mapping too).
        .records { try StoredRecord.mapUsernames($0) },
    ]

    /// Each named unique constraint and the rule it holds (from `UniqueRule.sqlKey`, which
    /// SQLite's column lists come from too).
    static var uniqueRules: [String: UniqueRule] { UniqueRule.postgresConstraints }
}
