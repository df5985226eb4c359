/// Sesame's tables, described once for both backends (`SQLTable`), as the schema steps that
/// created them. SQLite's migrations take each step as a migration of its own; PostgreSQL, which
/// came later, took the first eight at once. A shipped step never changes: a new column or table is
/// a new step, which both backends append to their migrations.
///
/// Every aggregate has its indexed and unique values as columns and the whole record in `data`
/// (the binary record form); the fields a login or a refresh changes are columns of their own;
/// `version` is the record's schema version; times are the seconds since 2001 that `Date` holds.
/// The unique keys are the ones `UniqueRule.sqlKey` maps a conflict from (`UniqueRuleSchemaTests`).
/// A unique key of one column is declared on the column (PostgreSQL names it `<table>_<column>_key`
/// all the same): SQLite checks a table's keys from the last declared to the first, so where a row
/// breaks both, this keeps the primary key the one reported, as the first schema did.
public enum SQLSchema {
    /// A record table of one tenant: `tenant_id` and `id` first, the record's `version` and `data`
    /// last, with the columns between that queries filter by.
    static func records(
        _ name: String, _ columns: [SQLColumn], unique: [(name: String, columns: [String])] = [],
        indexes: [SQLIndex] = [], versioned: Bool = true, withoutRowID: Bool = false
    ) -> SQLTable {
        SQLTable(
            name,
            [.column("tenant_id", .text), .column("id", .text)] + columns
                + (versioned ? [.column("version", .integer)] : []) + [.column("data", .blob)],
            primaryKey: ["tenant_id", "id"], unique: unique, indexes: indexes, withoutRowID: withoutRowID)
    }

    /// Every schema step, in the order SQLite's migrations took them: what a migrated database of
    /// either backend holds (`SQLSchemaTests` compares the two). A new step is appended here too.
    public static var steps: [SQLSchemaStep] {
        [firstRelease] + refreshTokenPasskey + [resourceServers, dpopProofs, authSessions] + configurationGeneration
            + hotColumns + [countersAndOutbox, ssoSessions, deviceKeysAndDailyCounts, linkedIdentities, metadata]
            + [auditEvents] + refreshFamilyHead
    }

    /// The columns of every table once all the steps are taken: its name, type and nullability.
    public static var columns: [String: [SQLColumn]] {
        var tables: [String: [SQLColumn]] = [:]
        for step in steps {
            switch step {
            case .create(let created): for table in created { tables[table.name] = table.columns }
            case .addColumns(let table, let added): tables[table, default: []] += added
            case .indexes, .statements, .perDialect: break
            }
        }
        return tables
    }

    // MARK: SQLite 1 (PostgreSQL 1): the first release.

    public static let firstRelease = SQLSchemaStep.create([
        SQLTable(
            "tenants",
            [.column("id", .text), .column("created_at", .real), .column("version", .integer), .column("data", .blob)],
            primaryKey: ["id"]),
        SQLTable(
            "tenant_hosts",
            [.column("host", .text), .column("tenant_id", .text, "REFERENCES tenants (id) ON DELETE CASCADE")],
            primaryKey: ["host"], indexes: [.index("tenant_hosts_tenant", "tenant_id")], withoutRowID: true),
        records(
            "clients", [.column("created_at", .real)],
            indexes: [.index("clients_created", "tenant_id", "created_at", "id")]),
        records(
            "connections", [.column("name", .text), .column("created_at", .real)],
            unique: [("name", ["tenant_id", "name"])]),
        records(
            "users",
            [
                .column("connection_id", .text), .column("user_handle", .blob), .nullable("email_lower", .text),
                .nullable("phone_number", .text), .nullable("username_lower", .text), .nullable("name_lower", .text),
                .column("id_lower", .text), .column("created_at", .real),
            ],
            unique: [
                ("user_handle", ["tenant_id", "user_handle"]),
                ("email", ["tenant_id", "connection_id", "email_lower"]),
                ("phone_number", ["tenant_id", "connection_id", "phone_number"]),
                ("username", ["tenant_id", "connection_id", "username_lower"]),
            ],
            indexes: [.index("users_created", "tenant_id", "created_at DESC", "id")]),
        records(
            "passkeys", [.column("user_id", .text), .column("credential_id", .blob), .column("created_at", .real)],
            unique: [("credential_id", ["tenant_id", "credential_id"])],
            indexes: [.index("passkeys_user", "tenant_id", "user_id")]),
        records("signing_keys", [.column("created_at", .real)]),
        records(
            "refresh_tokens",
            [
                .column("token_hash", .blob, "UNIQUE"), .column("family_id", .text), .column("client_id", .text),
                .column("user_id", .text), .column("created_at", .real),
            ],
            indexes: [
                .index("refresh_tokens_family", "tenant_id", "family_id"),
                .index("refresh_tokens_user", "tenant_id", "user_id"),
            ]),
        records(
            "auth_events", [.column("at", .real)], indexes: [.index("auth_events_at", "tenant_id", "at", "id")],
            versioned: false),
    ])

    // MARK: SQLite 3–8 (PostgreSQL 1 too).

    /// Which passkey a refresh family came from, so deleting the passkey revokes it.
    public static let refreshTokenPasskey: [SQLSchemaStep] = [
        .addColumns(table: "refresh_tokens", [.nullable("passkey_id", .text)]),
        .indexes(table: "refresh_tokens", [.index("refresh_tokens_passkey", "tenant_id", "passkey_id")]),
    ]

    /// APIs (Auth0's resource servers), found by their identifier (the audience).
    public static let resourceServers = SQLSchemaStep.create([
        records(
            "resource_servers", [.column("identifier", .text), .column("created_at", .real)],
            unique: [("identifier", ["tenant_id", "identifier"])],
            indexes: [.index("resource_servers_created", "tenant_id", "created_at", "id")])
    ])

    /// Seen DPoP proofs (a hash of key and jti) until they expire.
    public static let dpopProofs = SQLSchemaStep.create([
        SQLTable(
            "dpop_proofs",
            [.column("tenant_id", .text), .column("proof_key", .blob), .column("expires_at", .real)],
            primaryKey: ["tenant_id", "proof_key"], indexes: [.index("dpop_proofs_expiry", "expires_at")],
            withoutRowID: true)
    ])

    /// Pending passkey ceremonies, for deployments that keep them in the store.
    public static let authSessions = SQLSchemaStep.create([
        SQLTable(
            "auth_sessions",
            [
                .column("handle_hash", .blob), .column("tenant_id", .text), .column("requester", .text),
                .column("expires_at", .real), .column("payload", .blob),
            ],
            primaryKey: ["handle_hash"],
            indexes: [
                .index("auth_sessions_requester", "requester", "expires_at"),
                .index("auth_sessions_expiry", "expires_at"),
            ],
            withoutRowID: true)
    ])

    /// The configuration generation, raised by triggers in the writing transaction itself, so no
    /// write path can forget it; every process's cache compares it on each read.
    public static let configurationGeneration: [SQLSchemaStep] = [
        .create([
            SQLTable(
                "configuration_generation",
                [.column("id", .smallInteger, "CHECK (id = 1)"), .column("value", .integer)], primaryKey: ["id"])
        ]),
        .statements(["INSERT INTO configuration_generation (id, value) VALUES (1, 0)"]),
        .perDialect(
            sqlite: configurationTables.flatMap { table in
                ["INSERT", "UPDATE", "DELETE"].map { event in
                    "CREATE TRIGGER \(table)_\(event.lowercased())_generation AFTER \(event) ON \(table)\n"
                        + "BEGIN UPDATE configuration_generation SET value = value + 1; END"
                }
            },
            postgres: [
                """
                CREATE FUNCTION raise_configuration_generation() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    UPDATE configuration_generation SET value = value + 1 WHERE id = 1;
                    RETURN NULL;
                END;
                $$
                """
            ]
                + configurationTables.map { table in
                    "CREATE TRIGGER \(table)_generation AFTER INSERT OR UPDATE OR DELETE ON \(table)\n"
                        + "    FOR EACH STATEMENT EXECUTE FUNCTION raise_configuration_generation()"
                }),
    ]

    /// The tables whose changes raise the configuration generation.
    static let configurationTables = ["tenants", "clients", "connections", "resource_servers"]

    // MARK: SQLite 9 (PostgreSQL 2): the hot records' changing fields as columns of their own.

    public static let hotColumns: [SQLSchemaStep] = [
        .addColumns(
            table: "passkeys",
            [
                .column("sign_count", .integer, "DEFAULT 0"), .column("backup_state", .integer, "DEFAULT 0"),
                .nullable("last_used_at", .real),
            ]),
        .addColumns(table: "users", [.nullable("last_login_at", .real)]),
        .addColumns(table: "refresh_tokens", [.nullable("used_at", .real), .nullable("revoked_at", .real)]),
    ]

    // MARK: SQLite 12 (PostgreSQL 5): attempt counters and the outbox.

    public static let countersAndOutbox = SQLSchemaStep.create([
        SQLTable(
            "attempt_counters",
            [
                .column("tenant_id", .text), .column("counter_key", .blob), .column("attempts", .integer),
                .column("window_ends_at", .real),
            ],
            primaryKey: ["tenant_id", "counter_key"], indexes: [.index("attempt_counters_expiry", "window_ends_at")],
            withoutRowID: true),
        records(
            "outbox", [.column("created_at", .real)],
            indexes: [.index("outbox_created", "tenant_id", "created_at", "id")],
            versioned: false, withoutRowID: true),
    ])

    // MARK: SQLite 14 (PostgreSQL 7): SSO sessions of the hosted pages.

    public static let ssoSessions = SQLSchemaStep.create([
        records(
            "sso_sessions",
            [
                .column("cookie_hash", .blob, "UNIQUE"), .column("user_id", .text), .column("created_at", .real),
                .column("ends_at", .real),
            ],
            indexes: [.index("sso_sessions_user", "tenant_id", "user_id"), .index("sso_sessions_ends", "ends_at")],
            versioned: false, withoutRowID: true)
    ])

    // MARK: SQLite 15 (PostgreSQL 8): legacy device keys and the auth events' daily roll-up.

    public static let deviceKeysAndDailyCounts = SQLSchemaStep.create([
        records(
            "device_keys", [.column("user_id", .text), .column("state", .text), .column("created_at", .real)],
            indexes: [.index("device_keys_user", "tenant_id", "user_id", "state")], versioned: false,
            withoutRowID: true),
        SQLTable(
            "auth_daily_counts",
            ["tenant_id", "day", "client_id", "connection_id", "method", "passkey_kind", "aaguid", "platform"].map {
                SQLColumn.column($0, .text)
            } + [.column("count", .integer)],
            primaryKey: [
                "tenant_id", "day", "method", "passkey_kind", "aaguid", "platform", "client_id", "connection_id",
            ],
            withoutRowID: true),
    ])

    // MARK: SQLite 17 (PostgreSQL 10): identities at other providers linked to users.

    public static let linkedIdentities = SQLSchemaStep.create([
        SQLTable(
            "linked_identities",
            [
                .column("tenant_id", .text), .column("connection_id", .text), .column("subject", .text),
                .column("user_id", .text), .column("created_at", .real), .column("data", .blob),
            ],
            primaryKey: ["tenant_id", "connection_id", "subject"],
            indexes: [.index("linked_identities_user", "tenant_id", "user_id")], withoutRowID: true)
    ])

    // MARK: SQLite 18 (PostgreSQL 11): FIDO metadata, one set for the installation.

    /// The imported BLOB, and its entries under each AAGUID ("aaguid:…") and attestation key
    /// identifier ("key:…") (docs/mds.md).
    public static let metadata = SQLSchemaStep.create([
        SQLTable(
            "metadata_blob",
            // A rowid alias as first declared (without NOT NULL), which never holds NULL.
            [.nullable("id", .smallInteger, "CHECK (id = 1)"), .column("serial", .integer), .column("data", .blob)],
            primaryKey: ["id"]),
        SQLTable(
            "authenticator_metadata", [.column("lookup_key", .text), .column("data", .blob)],
            primaryKey: ["lookup_key"], withoutRowID: true),
    ])

    // MARK: SQLite 19 (PostgreSQL 12): the audit log, append-only; ids grow with time.

    public static let auditEvents = SQLSchemaStep.create([
        records(
            "audit_events",
            [.column("at", .real), .column("type", .text), .nullable("user_id", .text), .nullable("client_id", .text)],
            indexes: [
                .index("audit_events_user", "tenant_id", "user_id", "id"),
                .index("audit_events_type", "tenant_id", "type", "id"),
                .index("audit_events_at", "tenant_id", "at"),
            ],
            versioned: false, withoutRowID: true)
    ])

    // MARK: SQLite 20 (PostgreSQL 13): only a family's first refresh token in the user and passkey indexes.

    /// Existing tokens stay indexed (`family_head` 1); a rotation's successor is inserted with 0
    /// (docs/ARCHITECTURE.md, "Hot records").
    public static let refreshFamilyHead: [SQLSchemaStep] = [
        .addColumns(table: "refresh_tokens", [.column("family_head", .smallInteger, "DEFAULT 1")]),
        .statements(["DROP INDEX refresh_tokens_user", "DROP INDEX refresh_tokens_passkey"]),
        .indexes(
            table: "refresh_tokens",
            [
                .index("refresh_tokens_user", "tenant_id", "user_id", where: "family_head = 1"),
                .index("refresh_tokens_passkey", "tenant_id", "passkey_id", where: "family_head = 1"),
            ]),
    ]
}

extension Array where Element == SQLSchemaStep {
    /// The steps as one script in `dialect`.
    public func script(in dialect: SQLDialect) -> String {
        map { $0.script(in: dialect) }.joined(separator: "\n")
    }
}
