import Foundation

/// The files the client commands (`signup`, `login`, `token`, `passkeys`) keep between runs.
///
/// The directory is `$SESAME_CONFIG_DIR` when set (tests), else `$XDG_CONFIG_HOME/sesame`, else
/// `$HOME/.config/sesame`. It is created with mode 0700 and holds, each written with mode 0600:
/// - `config.json`: the server, the client id, the origin the software authenticator reports and
///   the passkey the CLI signs in with (`ClientConfig`);
/// - `credentials.json`: the login's tokens, refresh token included (`FileCredentialsStore`);
/// - `my-account.json`: a second set of tokens for the My Account API (audience `<server>/me/`),
///   fetched by the first `passkeys` command and renewed with its own refresh token after that;
/// - `passkeys.json`: the software authenticator's private keys (`FileCredentialStore`).
struct ClientState {
    /// The state directory.
    let directory: String

    var configPath: String { path("config.json") }
    var credentialsPath: String { path("credentials.json") }
    var myAccountCredentialsPath: String { path("my-account.json") }
    var keyStorePath: String { path("passkeys.json") }

    private func path(_ name: String) -> String {
        (directory as NSString).appendingPathComponent(name)
    }

    /// The state directory the environment names (see the type's documentation).
    static func locate(variables: [String: String]) throws(ClientFailure) -> ClientState {
        func nonEmpty(_ name: String) -> String? {
            guard let value = variables[name], !value.isEmpty else { return nil }
            return value
        }
        if let explicit = nonEmpty("SESAME_CONFIG_DIR") {
            return ClientState(directory: explicit)
        }
        // The XDG spec says a relative XDG_CONFIG_HOME is invalid and is to be ignored.
        if let xdg = nonEmpty("XDG_CONFIG_HOME"), xdg.hasPrefix("/") {
            return ClientState(directory: (xdg as NSString).appendingPathComponent("sesame"))
        }
        if let home = nonEmpty("HOME") {
            return ClientState(directory: (home as NSString).appendingPathComponent(".config/sesame"))
        }
        throw ClientFailure("cannot find a config directory: set XDG_CONFIG_HOME or HOME")
    }

    /// Creates the directory with mode 0700 when it is missing.
    func createDirectory() throws(ClientFailure) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ClientFailure("\(directory) exists and is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ClientFailure("cannot create \(directory): \(ClientFailure.describe(error))")
        }
    }

    /// The saved configuration, nil when there is none yet.
    func loadConfig() throws(ClientFailure) -> ClientConfig? {
        guard FileManager.default.fileExists(atPath: configPath) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: configPath))
        } catch {
            throw ClientFailure("cannot read \(configPath): \(ClientFailure.describe(error))")
        }
        do {
            return try JSONDecoder().decode(ClientConfig.self, from: data)
        } catch {
            throw ClientFailure("\(configPath) is not a valid sesame config; fix or remove it")
        }
    }

    /// Replaces the configuration file (mode 0600, written beside it and renamed into place).
    func saveConfig(_ config: ClientConfig) throws(ClientFailure) {
        try createDirectory()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try ClientState.writeAtomically(try encoder.encode(config), to: configPath)
        } catch {
            throw ClientFailure("cannot write \(configPath): \(ClientFailure.describe(error))")
        }
    }

    /// Removes a file if it exists.
    func remove(_ path: String) throws(ClientFailure) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw ClientFailure("cannot remove \(path): \(ClientFailure.describe(error))")
        }
    }

    /// Writes `data` to a temporary file with mode 0600 in the same directory, then renames it
    /// over `path`, so a reader sees the old file or the new one.
    static func writeAtomically(_ data: Data, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory as NSString).appendingPathComponent(
            ".\((path as NSString).lastPathComponent).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600])
        else {
            throw ClientFailure("cannot create \(temporary)")
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw ClientFailure(reason)
        }
    }
}

/// What `config.json` holds.
struct ClientConfig: Codable, Equatable, Sendable {
    /// The server's URL as `scheme://host[:port]`.
    var server: String
    /// The native client the CLI signs in as.
    var clientID: String
    /// The origin the software authenticator reports; nil means the server's origin.
    var origin: String?
    /// The passkey (credential id, base64url) the CLI signs in with; nil means the newest one it holds.
    var credentialID: String?
    /// The email the account was created with, when this CLI created it.
    var email: String?

    enum CodingKeys: String, CodingKey {
        case server
        case clientID = "client_id"
        case origin
        case credentialID = "credential_id"
        case email
    }

    /// The origin the authenticator reports.
    var effectiveOrigin: String { origin ?? server }
}
