import Foundation
import SesameClient
import SesameCrypto
import SesameHTTP
import SesameSQLite
import SesameService
import SesameSoftwareAuthenticator
import SesameSoftwarePasskey
import SesameStore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real `SesameApplication` on SQLite behind a real HTTPServer on a loopback port, bootstrapped
/// with a tenant whose public URL is `http://localhost:<port>`; the SDK talks to it over URLSession.
final class LiveServer: @unchecked Sendable {  // immutable after init; the server is thread-safe
    let directory: URL
    let clock: ManualClock
    let server: HTTPServer
    let clientID: String
    var port: Int { server.port }
    var origin: String { "http://localhost:\(port)" }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sesame-sdk-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try SQLiteStore(path: directory.appendingPathComponent("sesame.db").path)
        clock = ManualClock(Date())
        let application = SesameApplication(
            store: store, masterKey: try MasterKey.generate(), clock: clock, rateLimitPerMinute: 0)
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.threads = 2
        server = try HTTPServer(
            configuration: configuration, router: application.router(), metrics: application.metrics,
            log: RequestLog(level: .error, sink: { _ in }))
        let (bootstrap, _) = try Bootstrap.initialize(
            store: store, publicURL: "http://localhost:\(server.port)", random: SystemRandom(), now: clock.now())
        clientID = bootstrap.clientID
    }

    deinit {
        server.stop(gracePeriod: 1)
        try? FileManager.default.removeItem(at: directory)
    }

    /// The SDK configuration for this server (or another client id).
    func configuration(clientID: String? = nil, timeout: TimeInterval = 10) throws -> SesameConfiguration {
        guard let domain = URL(string: origin) else { throw LiveFailure.badURL }
        return SesameConfiguration(domain: domain, clientID: clientID ?? self.clientID, timeout: timeout)
    }

    func authentication(clientID: String? = nil, now: @escaping @Sendable () -> Date = { Date() }) throws
        -> SesameAuthentication
    {
        SesameAuthentication(configuration: try configuration(clientID: clientID), now: now)
    }

    /// A software passkey provider (keys in memory) reporting this server's web origin.
    func provider() -> SoftwarePasskeyProvider {
        var configuration = AuthenticatorConfiguration()
        configuration.origin = .web(origin)
        return SoftwarePasskeyProvider(authenticator: SoftwareAuthenticator(configuration: configuration))
    }

    /// A My Account client, after logging in with `provider` for the `<domain>/me/` audience.
    func myAccount(provider: SoftwarePasskeyProvider) async throws -> MyAccount {
        let configuration = try configuration()
        let credentials = try await authentication().logIn(
            provider: provider, audience: configuration.myAccountAudience, scope: "openid")
        return MyAccount(configuration: configuration, accessToken: credentials.accessToken)
    }
}

enum LiveFailure: Error {
    case badURL
    case socket(String)
}
