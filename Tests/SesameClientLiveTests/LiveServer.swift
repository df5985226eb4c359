import Foundation
import SesameClient
import SesameCrypto
import SesameHTTP
import SesameService
import SesameSoftwareAuthenticator
import SesameSoftwarePasskey
import SesameStore
import SesameTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `TestSesame` live on SQLite, with the tenant at `http://localhost:<port>`; the SDK talks to it
/// over URLSession.
final class LiveServer: @unchecked Sendable {  // immutable after init; the server is thread-safe
    let sesame: TestSesame
    var clock: ManualClock { sesame.clock }
    let server: HTTPServer
    var clientID: String { sesame.bootstrap.clientID }
    var port: Int { sesame.port }
    var origin: String { "http://localhost:\(port)" }

    init() throws {
        var options = TestSesame.Options()
        options.start = Date()
        sesame = try TestSesame(.live(), store: .sqlite, options: options)
        server = try sesame.liveServer
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
        SoftwarePasskeyProvider(authenticator: TestSesame.authenticator(origin: .web(origin)))
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
