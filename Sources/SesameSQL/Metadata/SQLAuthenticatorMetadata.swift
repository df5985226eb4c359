import Foundation
import SesameStore

/// The FIDO metadata of a SQL transaction: one `metadata_blob` row, and each entry once per
/// lookup key ("aaguid:<aaguid>", "key:<hex>") in `authenticator_metadata`.
struct SQLAuthenticatorMetadata: AuthenticatorMetadataRepository {
    let tx: SQLTransaction

    func blob() throws -> MetadataBLOBRecord? {
        try tx.checkOpen()
        return try tx.record(
            MetadataBLOBRecord.self, table: "metadata_blob", "SELECT data FROM metadata_blob WHERE id = 1", [])
    }

    func replace(blob: MetadataBLOBRecord, entries: [AuthenticatorMetadataRecord]) throws {
        try tx.checkWritable()
        try tx.atomically {
            try tx.connection.execute("DELETE FROM authenticator_metadata", [])
            try tx.connection.execute("DELETE FROM metadata_blob", [])
            try tx.connection.execute(
                "INSERT INTO metadata_blob (id, serial, data) VALUES (1, ?, ?)",
                [.integer(Int64(blob.serial)), tx.encode(blob)])
            for entry in entries {
                let data = tx.encode(entry)
                for key in entry.lookupKeys {
                    try tx.connection.execute(
                        "INSERT INTO authenticator_metadata (lookup_key, data) VALUES (?, ?)", [.text(key), data])
                }
            }
        }
    }

    func get(aaguid: String) throws -> AuthenticatorMetadataRecord? {
        try entry("aaguid:" + aaguid)
    }

    func get(attestationKeyIdentifier: String) throws -> AuthenticatorMetadataRecord? {
        try entry("key:" + attestationKeyIdentifier)
    }

    func entries() throws -> [AuthenticatorMetadataRecord] {
        try tx.checkOpen()
        // Each entry has a row per lookup key; its first key's row stands for it.
        let rows = try tx.connection.query(
            "SELECT lookup_key, data FROM authenticator_metadata ORDER BY lookup_key", []
        ) { row in
            (
                row.text(0),
                try tx.decode(AuthenticatorMetadataRecord.self, row, column: 1, table: "authenticator_metadata")
            )
        }
        return rows.filter { $0.0 == $0.1.lookupKeys.first }.map(\.1)
    }

    private func entry(_ key: String) throws -> AuthenticatorMetadataRecord? {
        try tx.checkOpen()
        return try tx.record(
            AuthenticatorMetadataRecord.self, table: "authenticator_metadata",
            "SELECT data FROM authenticator_metadata WHERE lookup_key = ?", [.text(key)])
    }
}
