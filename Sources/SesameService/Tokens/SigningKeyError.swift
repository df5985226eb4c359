/// Why the signing-key ring could not produce a key. These are operator problems (a changed master
/// key, a damaged record), reported as 503-style unavailability by the service, never as a client error.
public enum SigningKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The sealed private key does not open with this master key (changed `SESAME_MASTER_KEY` or key file?).
    case cannotUnseal(keyID: String)
    /// A stored key record is inconsistent (bad DER, kid not the key's thumbprint, wrong key type).
    case corrupt(keyID: String, reason: String)
    /// The tenant has no current key for the algorithm even after creating one (a concurrent writer?).
    case noCurrentKey(tenantID: String, algorithm: String)

    public var description: String {
        switch self {
        case .cannotUnseal(let kid):
            return "signing key \(kid) does not open with this master key; was SESAME_MASTER_KEY or master.key changed?"
        case .corrupt(let kid, let reason): return "signing key \(kid) is damaged: \(reason)"
        case .noCurrentKey(let tenant, let alg): return "tenant \(tenant) has no current \(alg) signing key"
        }
    }
}
