import Foundation

/// A credential store that lives as long as the process: for tests and the load generator.
public final class InMemoryCredentialStore: CredentialStore, @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var list: CredentialList

    /// A store holding `credentials` (empty by default), in that order.
    public init(credentials: [AuthenticatorCredential] = []) {
        list = CredentialList(credentials: [])
        for credential in credentials {
            list.save(credential)
        }
    }

    /// Every credential, oldest save first.
    public func allCredentials() throws(AuthenticatorError) -> [AuthenticatorCredential] {
        lock.withLock { list.credentials }
    }

    /// Saves a credential (see `CredentialStore.save`).
    public func save(_ credential: AuthenticatorCredential) throws(AuthenticatorError) {
        lock.withLock { list.save(credential) }
    }

    /// Removes a credential; returns whether there was one.
    @discardableResult
    public func removeCredential(id: [UInt8]) throws(AuthenticatorError) -> Bool {
        lock.withLock { list.remove(id: id) }
    }

    /// Adds one to a credential's counter and returns the updated credential.
    public func incrementSignCount(credentialID: [UInt8]) throws(AuthenticatorError) -> AuthenticatorCredential {
        lock.lock()
        defer { lock.unlock() }
        return try list.incrementSignCount(id: credentialID)
    }
}
