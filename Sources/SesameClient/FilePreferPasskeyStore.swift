import Foundation

/// Prefer-passkey flags in one JSON file, `prefer-passkey.json` in a directory the app chooses
/// (Linux apps and command lines; `KeychainPreferPasskeyStore` on Apple platforms).
///
/// The file lists the users whose flag is set; it holds no secret, but is written like the
/// credentials file: mode 0600 (a new directory 0700), replaced whole through a temporary file
/// and a rename, so a reader never sees half of it. A file that is missing, unreadable or not
/// this format counts as "no flag set" (the flag is only a hint); the next change replaces it
/// with a valid one. Changes from one process are serialised; two processes writing at once keep
/// the last writer's list.
public final class FilePreferPasskeyStore: PreferPasskeyStore, @unchecked Sendable {  // writes behind `lock`
    /// The file.
    public let path: String
    private let lock = NSLock()

    static let fileName = "prefer-passkey.json"
    static let formatName = "sesame-prefer-passkey"
    static let formatVersion = 1

    /// A store in `directory`; nothing is read or created until the first operation.
    public init(directory: String) {
        path = URL(fileURLWithPath: directory).appendingPathComponent(Self.fileName).path
    }

    /// Whether the flag is set for `user`; false when the file is missing or unreadable.
    public func prefersPasskey(_ user: PreferPasskeyKey) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return read().contains(user)
    }

    /// Sets the flag for `user`, rewriting the file when it changes.
    public func setPrefersPasskey(_ user: PreferPasskeyKey) throws {
        try change { $0.insert(user).inserted }
    }

    /// Clears the flag for `user`, rewriting the file when it changes.
    public func clearPrefersPasskey(_ user: PreferPasskeyKey) throws {
        try change { $0.remove(user) != nil }
    }

    private func change(_ update: (inout Set<PreferPasskeyKey>) -> Bool) throws {
        lock.lock()
        defer { lock.unlock() }
        var users = read()
        guard update(&users) else { return }
        let file = StoredFile(
            format: Self.formatName, version: Self.formatVersion,
            users: users.sorted { ($0.tenant, $0.userID) < ($1.tenant, $1.userID) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(file)
        } catch {
            throw CredentialsStoreError(.io, "cannot encode the prefer-passkey flags: \(error)")
        }
        do {
            try AtomicFile.write(data, to: path)
        } catch {
            throw CredentialsStoreError(.io, error.message)
        }
    }

    /// The flagged users; empty for a missing, unreadable or foreign file.
    private func read() -> Set<PreferPasskeyKey> {
        guard let data = FileManager.default.contents(atPath: path),
            let file = try? JSONDecoder().decode(StoredFile.self, from: data),
            file.format == Self.formatName, file.version == Self.formatVersion
        else { return [] }
        return Set(file.users)
    }
}

/// The on-disk shape (version 1).
private struct StoredFile: Codable {
    var format: String
    var version: Int
    var users: [PreferPasskeyKey]
}
