import Foundation
import SesameClient
import SesameSoftwareAuthenticator
import SesameSoftwarePasskey
import Synchronization
import WebAuthn

/// The SDK objects for one client command: the tenant, the software authenticator over the
/// CLI's key store, and the two credentials files (the login's and the My Account API's).
struct ClientSession {
    let state: ClientState
    var config: ClientConfig
    let configuration: SesameConfiguration
    let authentication: SesameAuthentication
    let credentialsStore: FileCredentialsStore
    let myAccountStore: FileCredentialsStore

    /// The scope every CLI login asks for; `offline_access` makes the server issue a refresh token.
    static let loginScope = "openid profile email offline_access"
    /// The scope of the My Account token the `passkeys` commands use.
    static let myAccountScope =
        "openid offline_access read:me:authentication_methods update:me:authentication_methods "
        + "delete:me:authentication_methods create:me:authentication_methods"
    /// Seconds each request may take unless `SESAME_TIMEOUT` says otherwise.
    static let defaultTimeout: TimeInterval = 15

    /// `SESAME_TIMEOUT` (seconds, 1 to 300) or the default.
    static func timeout(_ variables: [String: String]) throws(ClientFailure) -> TimeInterval {
        guard let text = variables["SESAME_TIMEOUT"], !text.isEmpty else { return defaultTimeout }
        guard let seconds = Double(text), seconds >= 1, seconds <= 300 else {
            throw ClientFailure("SESAME_TIMEOUT must be a number of seconds from 1 to 300")
        }
        return seconds
    }

    init(state: ClientState, config: ClientConfig, timeout: TimeInterval) throws(ClientFailure) {
        guard let domain = URL(string: config.server) else {
            throw ClientFailure("the server URL '\(config.server)' is not valid")
        }
        self.state = state
        self.config = config
        configuration = SesameConfiguration(domain: domain, clientID: config.clientID, timeout: timeout)
        authentication = SesameAuthentication(configuration: configuration)
        credentialsStore = FileCredentialsStore(path: state.credentialsPath)
        myAccountStore = FileCredentialsStore(path: state.myAccountCredentialsPath)
    }

    /// The session of the saved config; fails when nothing was saved yet.
    static func saved(state: ClientState, timeout: TimeInterval) throws(ClientFailure) -> ClientSession {
        guard let config = try state.loadConfig() else {
            throw ClientFailure.notLoggedIn
        }
        return try ClientSession(state: state, config: config, timeout: timeout)
    }

    // MARK: Signing in

    /// A software authenticator over the key store that reports the configured origin, and
    /// remembers the id of the passkey it last used.
    func provider() throws(ClientFailure) -> RecordingPasskeyProvider {
        do {
            try state.createDirectory()
            let inner = try SoftwarePasskeyProvider(
                storePath: state.keyStorePath, origin: Origin(config.effectiveOrigin))
            return RecordingPasskeyProvider(inner)
        } catch let error as ClientFailure {
            throw error
        } catch {
            throw ClientFailure("cannot open the key store \(state.keyStorePath): \(ClientFailure.describe(error))")
        }
    }

    /// Creates an account with a new passkey, then saves the config and the credentials.
    mutating func signUp(email: String, name: String?) async throws(ClientFailure) -> (Credentials, String?) {
        let provider = try provider()
        let credentials: Credentials
        do {
            credentials = try await authentication.signUp(
                email: email, name: name, provider: provider, scope: Self.loginScope)
        } catch {
            throw ClientFailure(error, server: config.server, timeout: configuration.timeout)
        }
        config.credentialID = provider.lastCredentialID
        try saveLogin(credentials)
        return (credentials, provider.lastCredentialID)
    }

    /// Signs in with the passkey this CLI holds for the server, then saves config and credentials.
    mutating func logIn() async throws(ClientFailure) -> (Credentials, String?) {
        let provider = try provider()
        let credentials: Credentials
        do {
            credentials = try await authentication.logIn(provider: provider, scope: Self.loginScope)
        } catch {
            throw ClientFailure(error, server: config.server, timeout: configuration.timeout)
        }
        config.credentialID = provider.lastCredentialID ?? config.credentialID
        try saveLogin(credentials)
        return (credentials, provider.lastCredentialID)
    }

    /// A new login replaces both credentials files: the My Account token may be another user's.
    func saveLogin(_ credentials: Credentials) throws(ClientFailure) {
        try state.saveConfig(config)
        do {
            try credentialsStore.save(credentials)
            try myAccountStore.clear()
        } catch {
            throw ClientFailure("cannot save the credentials in \(state.directory): \(ClientFailure.describe(error))")
        }
    }

    // MARK: Tokens

    /// The saved credentials of the login; fails when there are none.
    func storedCredentials() throws(ClientFailure) -> Credentials {
        let credentials: Credentials?
        do {
            credentials = try credentialsStore.load()
        } catch {
            throw ClientFailure("cannot read \(state.credentialsPath): \(ClientFailure.describe(error))")
        }
        guard let credentials else { throw ClientFailure.notLoggedIn }
        return credentials
    }

    /// Renews the access token with the refresh token and saves the result. Returns the new
    /// credentials and whether the server rotated the refresh token.
    func refresh() async throws(ClientFailure) -> (Credentials, Bool) {
        let current = try storedCredentials()
        guard let refreshToken = current.refreshToken else {
            throw ClientFailure("the saved credentials have no refresh token; run 'sesame login'")
        }
        let renewed: Credentials
        do {
            renewed = try await authentication.renew(withRefreshToken: refreshToken)
        } catch {
            throw ClientFailure(error, server: config.server, timeout: configuration.timeout, refreshing: true)
        }
        do {
            try credentialsStore.save(renewed)
        } catch {
            throw ClientFailure("cannot save the credentials: \(ClientFailure.describe(error))")
        }
        return (renewed, renewed.refreshToken != nil && renewed.refreshToken != refreshToken)
    }

    /// Revokes the refresh tokens of both credentials files at the server, then removes the files.
    /// The config stays, so `sesame login` needs no flags. Returns how many tokens were revoked.
    func revoke() async throws(ClientFailure) -> Int {
        let main = try storedCredentials()
        let myAccount: Credentials?
        do {
            myAccount = try myAccountStore.load()
        } catch {
            myAccount = nil  // an unreadable My Account file is removed below either way
        }
        var revoked = 0
        for token in [main.refreshToken, myAccount?.refreshToken].compactMap({ $0 }) {
            do {
                try await authentication.revoke(refreshToken: token)
            } catch {
                throw ClientFailure(error, server: config.server, timeout: configuration.timeout)
            }
            revoked += 1
        }
        do {
            try credentialsStore.clear()
            try myAccountStore.clear()
        } catch {
            throw ClientFailure("cannot remove the credentials: \(ClientFailure.describe(error))")
        }
        return revoked
    }

    // MARK: My Account

    /// A My Account API client: the saved My Account token (renewed when expired), or a new one
    /// from a passkey login with audience `<server>/me/`.
    private func myAccount(fresh: Bool = false) async throws(ClientFailure) -> MyAccount {
        let main = try storedCredentials()
        let saved = (try? myAccountStore.load()) ?? nil
        if !fresh, saved != nil {
            let manager = CredentialsManager(authentication: authentication, store: myAccountStore)
            do {
                let credentials = try await manager.credentials(minTTL: 30)
                return MyAccount(configuration: configuration, accessToken: credentials.accessToken)
            } catch let error where error.isUnauthorized {
                // The refresh token was revoked or has expired: sign in again below.
            } catch {
                throw ClientFailure(error, server: config.server, timeout: configuration.timeout)
            }
        }
        let provider = try provider()
        let credentials: Credentials
        do {
            credentials = try await authentication.logIn(
                provider: provider, audience: configuration.myAccountAudience, scope: Self.myAccountScope)
        } catch {
            throw ClientFailure(error, server: config.server, timeout: configuration.timeout)
        }
        // The key store's newest passkey signs the login; refuse to act on another account.
        let mainUser = TokenClaims(main.idToken ?? main.accessToken).subject
        let user = TokenClaims(credentials.accessToken).subject
        if let mainUser, let user, mainUser != user {
            throw ClientFailure(
                "the newest passkey in \(state.keyStorePath) belongs to \(user), not to the signed-in \(mainUser); "
                    + "run 'sesame login' first")
        }
        do {
            try myAccountStore.save(credentials)
        } catch {
            throw ClientFailure("cannot save \(state.myAccountCredentialsPath): \(ClientFailure.describe(error))")
        }
        return MyAccount(configuration: configuration, accessToken: credentials.accessToken)
    }

    /// Runs a My Account call; a rejected token is replaced once by a fresh login.
    private func withMyAccount<T>(_ body: (MyAccount) async throws(AuthenticationError) -> T)
        async throws(ClientFailure)
        -> T
    {
        let account = try await myAccount()
        do {
            return try await body(account)
        } catch let error where error.isUnauthorized {
            let fresh = try await myAccount(fresh: true)
            do {
                return try await body(fresh)
            } catch {
                throw ClientFailure(error, server: config.server, timeout: configuration.timeout)
            }
        } catch {
            throw ClientFailure(error, server: config.server, timeout: configuration.timeout)
        }
    }

    func passkeys() async throws(ClientFailure) -> [PasskeyAuthenticationMethod] {
        try await withMyAccount { account throws(AuthenticationError) in try await account.passkeys() }
    }

    func renamePasskey(id: String, name: String) async throws(ClientFailure) -> PasskeyAuthenticationMethod {
        try await withMyAccount { account throws(AuthenticationError) in
            try await account.renamePasskey(id: id, name: name)
        }
    }

    /// Deletes a passkey at the server; when this CLI holds its key, removes the key too (the
    /// server would refuse it now). Returns whether a local key was removed.
    func deletePasskey(id: String) async throws(ClientFailure) -> Bool {
        let keyID = try await withMyAccount { account throws(AuthenticationError) in
            let keyID = try await account.passkeys().first { $0.id == id }?.keyID
            try await account.deletePasskey(id: id)
            return keyID
        }
        guard let keyID, let bytes = try? WebAuthn.Base64URL.decode(keyID) else { return false }
        do {
            return try FileCredentialStore(path: state.keyStorePath).removeCredential(id: bytes)
        } catch {
            throw ClientFailure(
                "deleted \(id), but cannot remove its key from \(state.keyStorePath): \(error.message)")
        }
    }

    /// The credential ids (base64url) of the keys this CLI holds for the server's RP.
    func localCredentialIDs() -> Set<String> {
        let store = FileCredentialStore(path: state.keyStorePath)
        guard let all = try? store.allCredentials() else { return [] }
        return Set(all.map { WebAuthn.Base64URL.encode($0.id) })
    }
}

/// Wraps a provider and remembers the credential id of its last ceremony.
final class RecordingPasskeyProvider: PasskeyProvider {
    private let inner: any PasskeyProvider
    private let last = Mutex<String?>(nil)

    init(_ inner: any PasskeyProvider) {
        self.inner = inner
    }

    /// The id (base64url) of the passkey the last ceremony created or used.
    var lastCredentialID: String? { last.withLock { $0 } }

    func register(_ challenge: PasskeySignupChallenge) async throws -> PasskeyCredential {
        let credential = try await inner.register(challenge)
        last.withLock { $0 = credential.id }
        return credential
    }

    func assert(_ challenge: PasskeyLoginChallenge) async throws -> PasskeyCredential {
        let credential = try await inner.assert(challenge)
        last.withLock { $0 = credential.id }
        return credential
    }
}

extension ClientFailure {
    /// No credentials are saved.
    static let notLoggedIn = ClientFailure("not signed in: run 'sesame signup' or 'sesame login' first")

    /// An SDK error as one line: the server's `error_description` and `error`, or what failed locally.
    init(_ error: AuthenticationError, server: String, timeout: TimeInterval, refreshing: Bool = false) {
        switch error.kind {
        case .network:
            var reason = Substring(error.errorDescription)
            if reason.hasPrefix("cannot reach the server: ") {
                reason = reason.dropFirst("cannot reach the server: ".count)
            }
            self.init("cannot reach \(server): \(reason)")
        case .timeout:
            self.init("\(server) did not answer within \(Int(timeout)) seconds")
        case .server, .unauthorized:
            var message = error.errorDescription
            if !error.code.isEmpty, error.code != error.errorDescription {
                message += " (\(error.code)\(error.statusCode.map { ", HTTP \($0)" } ?? ""))"
            }
            if refreshing, error.isUnauthorized || error.code == "invalid_grant" {
                message += "; run 'sesame login' to sign in again"
            }
            self.init(message)
        default:
            self.init(error.errorDescription)
        }
    }
}
