import Foundation
import WebAuthn

/// A credential store in one JSON file, for tests, the `sesame` CLI and Linux apps.
///
/// THE FILE HOLDS PRIVATE KEYS IN THE CLEAR (PKCS#8, base64), like an unlocked local keychain:
/// anyone who can read it can sign in as its users. It is written with mode 0600 in a directory
/// created with mode 0700, and only ever replaced whole (a temporary file in the same directory,
/// fsync, then rename), so a reader sees the old file or the new one, never half of one.
///
/// Every operation reads the file, so several instances (or processes, one at a time) share it.
/// Concurrent writers in separate processes are not coordinated: the last rename wins. A missing
/// file is an empty store; a file that exists but is not a valid store throws `corruptStore` and
/// is never treated as empty or overwritten by a read.
public final class FileCredentialStore: CredentialStore, @unchecked Sendable {
    /// The store file.
    public let path: String
    private let lock = NSLock()

    /// The file's format marker and current version.
    static let formatName = "sesame-software-authenticator"
    static let formatVersion = 1

    /// A store backed by the file at `path`; nothing is read or created until the first operation.
    public init(path: String) {
        self.path = path
    }

    /// Every credential, oldest save first.
    public func allCredentials() throws(AuthenticatorError) -> [AuthenticatorCredential] {
        lock.lock()
        defer { lock.unlock() }
        return try load().credentials
    }

    /// Saves a credential (see `CredentialStore.save`) and rewrites the file.
    public func save(_ credential: AuthenticatorCredential) throws(AuthenticatorError) {
        lock.lock()
        defer { lock.unlock() }
        var list = try load()
        list.save(credential)
        try write(list)
    }

    /// Removes a credential and rewrites the file; returns whether there was one.
    @discardableResult
    public func removeCredential(id: [UInt8]) throws(AuthenticatorError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        var list = try load()
        guard list.remove(id: id) else { return false }
        try write(list)
        return true
    }

    /// Adds one to a credential's counter, rewrites the file, and returns the updated credential.
    public func incrementSignCount(credentialID: [UInt8]) throws(AuthenticatorError) -> AuthenticatorCredential {
        lock.lock()
        defer { lock.unlock() }
        var list = try load()
        let updated = try list.incrementSignCount(id: credentialID)
        try write(list)
        return updated
    }

    // MARK: Reading

    private func load() throws(AuthenticatorError) -> CredentialList {
        guard FileManager.default.fileExists(atPath: path) else { return CredentialList(credentials: []) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw AuthenticatorError(.storeIO, "cannot read credential store \(path): \(error.localizedDescription)")
        }
        let file: StoreFile
        do {
            file = try JSONDecoder().decode(StoreFile.self, from: data)
        } catch {
            throw corrupt("not a credential store JSON document (\(Self.describe(error)))")
        }
        guard file.format == Self.formatName else { throw corrupt("format is \"\(file.format)\"") }
        guard file.version == Self.formatVersion else { throw corrupt("unsupported version \(file.version)") }
        var credentials: [AuthenticatorCredential] = []
        for (index, entry) in file.credentials.enumerated() {
            credentials.append(try credential(from: entry, index: index))
        }
        return CredentialList(credentials: credentials)
    }

    private func credential(from entry: StoreFile.Entry, index: Int) throws(AuthenticatorError)
        -> AuthenticatorCredential
    {
        let field = "credentials[\(index)]"
        let id: [UInt8]
        let userHandle: [UInt8]
        do {
            id = try Base64URL.decode(entry.credentialId)
            userHandle = try Base64URL.decode(entry.userHandle)
        } catch {
            throw corrupt("\(field): \(error.message)")
        }
        guard !id.isEmpty, id.count <= AuthenticatorData.maxCredentialIDLength else {
            throw corrupt("\(field).credentialId has \(id.count) bytes")
        }
        guard let algorithm = COSEAlgorithm(rawValue: entry.algorithm) else {
            throw corrupt("\(field).algorithm \(entry.algorithm) is not a known COSE algorithm")
        }
        guard let key = Data(base64Encoded: entry.privateKeyPKCS8), !key.isEmpty else {
            throw corrupt("\(field).privateKeyPKCS8 is not base64")
        }
        guard entry.created.isFinite else { throw corrupt("\(field).created is not a number of seconds") }
        return AuthenticatorCredential(
            rpID: entry.rpId, id: id, userHandle: userHandle, userName: entry.userName,
            userDisplayName: entry.userDisplayName, algorithm: algorithm, privateKeyPKCS8: Array(key),
            signCount: entry.signCount, backupEligible: entry.backupEligible,
            created: Date(timeIntervalSince1970: entry.created))
    }

    private func corrupt(_ reason: String) -> AuthenticatorError {
        AuthenticatorError(.corruptStore, "credential store \(path) is corrupt: \(reason)")
    }

    private static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context):
            let location = context.codingPath.map(\.stringValue).joined(separator: ".")
            return location.isEmpty ? context.debugDescription : "\(location): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    // MARK: Writing

    private func write(_ list: CredentialList) throws(AuthenticatorError) {
        let file = StoreFile(
            format: Self.formatName, version: Self.formatVersion,
            credentials: list.credentials.map { credential in
                StoreFile.Entry(
                    rpId: credential.rpID, credentialId: Base64URL.encode(credential.id),
                    userHandle: Base64URL.encode(credential.userHandle), userName: credential.userName,
                    userDisplayName: credential.userDisplayName, algorithm: credential.algorithm.rawValue,
                    privateKeyPKCS8: Data(credential.privateKeyPKCS8).base64EncodedString(),
                    signCount: credential.signCount, backupEligible: credential.backupEligible,
                    created: credential.created.timeIntervalSince1970)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(file)
        } catch {
            throw AuthenticatorError(.storeIO, "cannot encode credential store: \(error)")
        }
        try AtomicFile.write(Array(data), to: path)
    }
}

/// The on-disk shape of `FileCredentialStore` (version 1).
private struct StoreFile: Codable {
    var format: String
    var version: Int
    var credentials: [Entry]

    struct Entry: Codable {
        var rpId: String
        /// base64url.
        var credentialId: String
        /// base64url.
        var userHandle: String
        var userName: String
        var userDisplayName: String
        /// COSE algorithm identifier.
        var algorithm: Int
        /// Standard base64 of the DER PKCS#8 PrivateKeyInfo.
        var privateKeyPKCS8: String
        var signCount: UInt32
        var backupEligible: Bool
        /// Seconds since 1970-01-01T00:00:00Z.
        var created: Double
    }
}
