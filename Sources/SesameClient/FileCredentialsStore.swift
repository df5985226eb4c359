import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Credentials in one JSON file, for Linux apps and command lines.
///
/// The file holds a refresh token: whoever reads it can act as the user. It is created with mode
/// 0600 (its directory, when created, 0700) and only ever replaced whole: a temporary file in the
/// same directory is written, flushed to disk and renamed over it, so a reader sees the old
/// credentials or the new ones, never half. A file that exists but is not valid credentials throws
/// `CredentialsStoreError.corrupt` and is left as it is, never read as empty or overwritten by a load.
public final class FileCredentialsStore: CredentialsStore {
    /// The file.
    public let path: String

    /// The file's format marker and current version.
    static let formatName = "sesame-credentials"
    static let formatVersion = 1

    /// A store in the file at `path`; nothing is read or created until the first operation.
    public init(path: String) {
        self.path = path
    }

    /// Writes `credentials` atomically with mode 0600.
    public func save(_ credentials: Credentials) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(
                StoredFile(format: Self.formatName, version: Self.formatVersion, credentials: credentials))
        } catch {
            throw CredentialsStoreError(.io, "cannot encode credentials: \(error)")
        }
        try write(data)
    }

    /// Reads the file: nil when it does not exist, `.corrupt` when it is not valid credentials.
    public func load() throws -> Credentials? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CredentialsStoreError(.io, "cannot read credentials file \(path): \(error.localizedDescription)")
        }
        let file: StoredFile
        do {
            file = try JSONDecoder().decode(StoredFile.self, from: data)
        } catch {
            throw corrupt("not a credentials JSON document (\(APIClient.describe(error)))")
        }
        guard file.format == Self.formatName else { throw corrupt("format is \"\(file.format)\"") }
        guard file.version == Self.formatVersion else { throw corrupt("unsupported version \(file.version)") }
        return file.credentials
    }

    /// Removes the file; no error when it does not exist.
    public func clear() throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw CredentialsStoreError(.io, "cannot remove credentials file \(path): \(AtomicFile.errnoText())")
        }
    }

    private func corrupt(_ reason: String) -> CredentialsStoreError {
        CredentialsStoreError(
            .corrupt,
            "credentials file \(path) is corrupt: \(reason); it was left as it is: remove it to sign in again")
    }

    private func write(_ data: Data) throws {
        do {
            try AtomicFile.write(data, to: path)
        } catch {
            throw CredentialsStoreError(.io, error.message)
        }
    }
}

/// The on-disk shape (version 1).
private struct StoredFile: Codable {
    var format: String
    var version: Int
    var credentials: Credentials
}
