import Foundation
import SesameWire

/// The DPoP proof repository of a memory transaction.
struct MemoryDPoPProofs: DPoPProofRepository {
    let tx: MemoryTransaction

    func record(tenantID: String, key: [UInt8], expiresAt: Date, now: Date) throws -> Bool {
        try tx.checkWritable()
        let memoryKey = MemoryKey(tenantID: tenantID, id: Hex.lowercase(key))
        if let held = tx.state.dpopProofs[memoryKey], held > now { return false }
        // Drop expired entries now and then, so the cache holds only live proofs.
        if tx.state.dpopProofs.count >= 1_024, tx.state.dpopProofs.count.isMultiple(of: 256) {
            tx.state.dpopProofs = tx.state.dpopProofs.filter { $0.value > now }
        }
        tx.state.dpopProofs[memoryKey] = expiresAt
        return true
    }
}
