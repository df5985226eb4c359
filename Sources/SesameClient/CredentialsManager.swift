import Foundation

/// Keeps a user signed in: stores their credentials, hands out a valid access token, renews it
/// with the refresh token when it has expired and stores the rotated refresh token.
///
/// Renewals are serialised: concurrent calls to `credentials()` share one refresh instead of
/// spending the same refresh token twice (which Sesame treats as token theft and answers by
/// revoking the whole session).
public final class CredentialsManager: Sendable {
    /// The client used to renew.
    public let authentication: SesameAuthentication
    /// Where credentials live.
    public let credentialsStore: any CredentialsStore
    private let now: @Sendable () -> Date
    private let gate = SerialGate()

    /// A manager over `store`, renewing through `authentication`, with `now` as its clock.
    public init(
        authentication: SesameAuthentication, store: any CredentialsStore,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.authentication = authentication
        self.credentialsStore = store
        self.now = now
    }

    /// Credentials whose access token is valid for at least `minTTL` more seconds (beyond the
    /// 60-second leeway), renewing and storing them first if needed. Throws `.unauthorized` when
    /// nothing is stored, when a renewal is needed but there is no refresh token, or when the
    /// server refuses the refresh token: the user has to sign in again.
    public func credentials(minTTL: TimeInterval = 0, scope: String? = nil) async throws(AuthenticationError)
        -> Credentials
    {
        do {
            return try await gate.run { [self] () async throws -> Credentials in
                try await self.validCredentials(minTTL: minTTL, scope: scope)
            }
        } catch let error as AuthenticationError {
            throw error
        } catch {
            throw AuthenticationError.storage("\(error)")
        }
    }

    private func validCredentials(minTTL: TimeInterval, scope: String?) async throws(AuthenticationError)
        -> Credentials
    {
        guard let current = try loadStored() else {
            throw AuthenticationError(
                kind: .unauthorized, code: "no_credentials", errorDescription: "no credentials are stored; sign in")
        }
        if !current.isExpired(now: now(), leeway: Credentials.expiryLeeway + max(0, minTTL)) {
            return current
        }
        guard let refreshToken = current.refreshToken else {
            throw AuthenticationError(
                kind: .unauthorized, code: "no_refresh_token",
                errorDescription: "the access token has expired and there is no refresh token; sign in again")
        }
        let renewed = try await authentication.renew(withRefreshToken: refreshToken, scope: scope)
        let merged = Credentials(
            accessToken: renewed.accessToken, tokenType: renewed.tokenType, idToken: renewed.idToken ?? current.idToken,
            refreshToken: renewed.refreshToken ?? refreshToken, expiresAt: renewed.expiresAt,
            scope: renewed.scope ?? current.scope)
        // The old refresh token is spent: the rotated one must be stored, or the session is lost.
        do {
            try credentialsStore.save(merged)
        } catch {
            throw AuthenticationError.storage("renewed credentials could not be stored: \(error)")
        }
        return merged
    }

    private func loadStored() throws(AuthenticationError) -> Credentials? {
        do {
            return try credentialsStore.load()
        } catch {
            throw AuthenticationError.storage("\(error)")
        }
    }

    /// Stores credentials (after a signup or login).
    public func store(_ credentials: Credentials) throws {
        try credentialsStore.save(credentials)
    }

    /// Removes the stored credentials (sign out; revoke the refresh token first to end the session).
    public func clear() throws {
        try credentialsStore.clear()
    }

    /// Whether credentials are stored that are valid now or can be renewed (a refresh token).
    public var hasValidCredentials: Bool {
        guard let credentials = try? credentialsStore.load() else { return false }
        return credentials.refreshToken != nil || !credentials.isExpired(now: now())
    }
}

/// Runs operations one at a time, in call order.
private actor SerialGate {
    private var tail: Task<Void, Never>?

    func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let previous = tail
        let task = Task<T, any Error> {
            await previous?.value
            return try await operation()
        }
        tail = Task { _ = try? await task.value }
        return try await task.value
    }
}
