/// Where a `SoftwareAuthenticator` keeps its credentials (and their private keys). Implementations
/// must be safe to call from several threads; each method is atomic on its own.
public protocol CredentialStore: Sendable {
    /// Every credential, oldest save first.
    func allCredentials() throws(AuthenticatorError) -> [AuthenticatorCredential]

    /// Saves `credential`, replacing any credential with the same ID and, as CTAP2
    /// authenticatorMakeCredential does for discoverable credentials, any credential with the same
    /// RP ID and user handle. The saved credential becomes the newest.
    func save(_ credential: AuthenticatorCredential) throws(AuthenticatorError)

    /// Removes the credential with this ID; returns whether there was one.
    @discardableResult
    func removeCredential(id: [UInt8]) throws(AuthenticatorError) -> Bool

    /// Adds one to the credential's signature counter and returns the updated credential.
    /// Throws `notAllowed` when there is no such credential or the counter would overflow.
    func incrementSignCount(credentialID: [UInt8]) throws(AuthenticatorError) -> AuthenticatorCredential
}

extension CredentialStore {
    /// The credentials scoped to `rpID`, oldest first.
    public func credentials(rpID: String) throws(AuthenticatorError) -> [AuthenticatorCredential] {
        try allCredentials().filter { $0.rpID == rpID }
    }

    /// The credential with this ID, if stored.
    public func credential(id: [UInt8]) throws(AuthenticatorError) -> AuthenticatorCredential? {
        try allCredentials().first { $0.id == id }
    }
}

/// The mutations both stores share, applied to an ordered list.
struct CredentialList {
    var credentials: [AuthenticatorCredential]

    mutating func save(_ credential: AuthenticatorCredential) {
        credentials.removeAll {
            $0.id == credential.id || ($0.rpID == credential.rpID && $0.userHandle == credential.userHandle)
        }
        credentials.append(credential)
    }

    mutating func remove(id: [UInt8]) -> Bool {
        let before = credentials.count
        credentials.removeAll { $0.id == id }
        return credentials.count != before
    }

    mutating func incrementSignCount(id: [UInt8]) throws(AuthenticatorError) -> AuthenticatorCredential {
        guard let index = credentials.firstIndex(where: { $0.id == id }) else {
            throw AuthenticatorError(.notAllowed, "no stored credential has this ID")
        }
        var credential = credentials[index]
        guard credential.signCount < UInt32.max else {
            throw AuthenticatorError(.notAllowed, "the credential's signature counter is exhausted")
        }
        credential.signCount += 1
        credentials[index] = credential
        return credential
    }
}
