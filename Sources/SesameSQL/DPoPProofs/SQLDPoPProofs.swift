import Foundation
import SesameStore

/// The DPoP proof repository of a SQL transaction.
struct SQLDPoPProofs: DPoPProofRepository {
    let tx: SQLTransaction

    func record(tenantID: String, key: [UInt8], expiresAt: Date, now: Date) throws -> Bool {
        try tx.checkWritable()
        return try tx.atomically {
            // A few expired entries go with each insert, so the table holds only live proofs.
            try tx.connection.execute(
                """
                DELETE FROM dpop_proofs WHERE (tenant_id, proof_key) IN
                    (SELECT tenant_id, proof_key FROM dpop_proofs WHERE expires_at <= ? LIMIT 16)
                """, [SQLTransaction.time(now)])
            let inserted = try tx.connection.execute(
                """
                INSERT INTO dpop_proofs (tenant_id, proof_key, expires_at) VALUES (?, ?, ?)
                ON CONFLICT (tenant_id, proof_key) DO UPDATE SET expires_at = excluded.expires_at
                WHERE dpop_proofs.expires_at <= ?
                """, [.text(tenantID), .blob(key), SQLTransaction.time(expiresAt), SQLTransaction.time(now)])
            return inserted > 0
        }
    }
}
