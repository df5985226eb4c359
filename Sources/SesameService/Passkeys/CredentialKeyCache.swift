import SesameCrypto
import Synchronization
import WebAuthn

/// Imported credential public keys by passkey id: importing costs more than parsing the whole
/// assertion, so each key is imported once. Entries are checked against the stored COSE bytes, so a
/// changed record is never served a stale key. Bounded: cleared when full.
final class CredentialKeyCache: Sendable {
    private struct Entry: Sendable {
        let encoded: [UInt8]
        let key: COSEKey
        let imported: PublicKey
    }

    private let entries = Mutex<[String: Entry]>([:])
    let capacity: Int

    init(capacity: Int = 50_000) {
        self.capacity = capacity
    }

    func key(for passkeyID: String, encoded: [UInt8]) throws(WebAuthnError) -> (COSEKey, PublicKey) {
        if let entry = entries.withLock({ $0[passkeyID] }), entry.encoded == encoded {
            return (entry.key, entry.imported)
        }
        let key = try COSEKey(bytes: encoded)
        let imported = try key.publicKey()
        entries.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[passkeyID] = Entry(encoded: encoded, key: key, imported: imported)
        }
        return (key, imported)
    }

    func remove(_ passkeyID: String) {
        _ = entries.withLock { $0.removeValue(forKey: passkeyID) }
    }
}
