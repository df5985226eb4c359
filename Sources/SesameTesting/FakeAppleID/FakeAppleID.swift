import Foundation
import SesameCrypto
import SesameHTTP
import SesameService

/// A running fake of Apple's ID service on 127.0.0.1, so that no test reaches Apple: its key set
/// (`GET /auth/keys`), its token endpoint (`POST /auth/token`: codes and refresh tokens for client
/// secrets signed with a registered .p8 key), and minting of the identity tokens and codes an app
/// would get from Sign in with Apple. Point a server at it with `issuer`, `jwksURL` and `tokenURL`.
public final class FakeAppleID: Sendable {
    /// How the fake starts.
    public struct Configuration: Sendable {
        /// The port on 127.0.0.1; 0 picks a free one.
        public var port = 0
        /// Where the keys are kept (created when empty); nil keeps them in memory. Ignored when
        /// `keys` is set.
        public var stateDirectory: String?
        /// Keys to use instead of the state directory's (one set shared by many fakes saves the
        /// RSA key generation).
        public var keys: FakeAppleIDKeys?
        /// The identity tokens' `iss`.
        public var issuer = FakeAppleIDMinter.appleIssuer
        /// The clock for `iat` and for checking client secrets, codes and their expiry.
        public var clock: any ServiceClock = SystemClock()
        /// Called with each token request once it is answered (the command line prints them).
        public var onTokenRequest: (@Sendable (FakeAppleTokenRequest) -> Void)?
        /// The server's request log (by default errors only, to standard error).
        public var log = RequestLog(level: .error)

        /// The defaults: a free port, keys in memory, Apple's issuer, the system clock.
        public init() {}
    }

    /// The port the fake listens on.
    public let port: Int
    /// What mints its tokens and codes (also usable without the server).
    public let minter: FakeAppleIDMinter
    private let endpoints: FakeAppleIDEndpoints
    private let server: HTTPServer

    /// Starts the fake.
    public init(_ configuration: Configuration = Configuration()) throws {
        let keys: FakeAppleIDKeys
        if let given = configuration.keys {
            keys = given
        } else if let directory = configuration.stateDirectory {
            keys = try FakeAppleIDKeys.loadOrCreate(stateDirectory: directory)
        } else {
            keys = try FakeAppleIDKeys.generate()
        }
        minter = FakeAppleIDMinter(keys: keys, issuer: configuration.issuer, clock: configuration.clock)
        endpoints = FakeAppleIDEndpoints(minter: minter, observer: configuration.onTokenRequest)
        var serverConfiguration = HTTPServer.Configuration(host: "127.0.0.1", port: configuration.port)
        serverConfiguration.threads = 2
        server = try HTTPServer(
            configuration: serverConfiguration, router: endpoints.router(), metrics: Metrics(), log: configuration.log)
        port = server.port
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    /// The key set's URL: the server's `jwks_uri`.
    public var jwksURL: String { baseURL + "/auth/keys" }
    /// The token endpoint's URL: the server's `token_endpoint`.
    public var tokenURL: String { baseURL + "/auth/token" }
    /// The web sign-in page (`options.authorization_endpoint`).
    public var authorizeURL: String { baseURL + "/auth/authorize" }
    /// The identity tokens' `iss`: the server's `issuer`.
    public var issuer: String { minter.issuer }
    /// The keys.
    public var keys: FakeAppleIDKeys { minter.keys }
    /// The JWK Set `GET /auth/keys` serves.
    public var keySet: JWKSet { keys.keySet }

    /// Accepts client secrets with `iss` = `teamID` and header `kid` = `keyID`, signed by the
    /// private half of `publicKey` (P-256). A second registration of `keyID` replaces the first.
    public func register(teamID: String, keyID: String, publicKey: PublicKey) throws {
        endpoints.register(try AppleClientSecret.Registration(teamID: teamID, keyID: keyID, publicKey: publicKey))
    }

    /// Like `register(teamID:keyID:publicKey:)` with the public half of a .p8 file's key.
    public func register(teamID: String, keyID: String, p8: String) throws {
        try register(teamID: teamID, keyID: keyID, publicKey: try Self.privateKey(p8: p8).publicKey)
    }

    /// Every token request so far, oldest first.
    public var tokenRequests: [FakeAppleTokenRequest] { endpoints.requests }

    /// An identity token for `claims` (see `FakeAppleIDMinter.mintIdentityToken`).
    public func mintIdentityToken(_ claims: AppleIdentityClaims, signing: FakeAppleSigning = .publishedKey(0)) throws
        -> String
    {
        try minter.mintIdentityToken(claims, signing: signing)
    }

    /// An `alg: none` identity token.
    public func mintUnsecuredIdentityToken(_ claims: AppleIdentityClaims) throws -> String {
        try minter.mintUnsecuredIdentityToken(claims)
    }

    /// An HS256 identity token (by default keyed with published key 0's public PEM).
    public func mintHS256IdentityToken(_ claims: AppleIdentityClaims, secret: [UInt8]? = nil) throws -> String {
        try minter.mintHS256IdentityToken(claims, secret: secret)
    }

    /// An authorization code for `claims` (see `FakeAppleIDMinter.mintAuthorizationCode`).
    public func mintAuthorizationCode(_ claims: AppleIdentityClaims, redirectURI: String? = nil) throws -> String {
        try minter.mintAuthorizationCode(claims, redirectURI: redirectURI)
    }

    /// Stops serving (in-flight requests get `gracePeriod` seconds). Idempotent.
    public func stop(gracePeriod: Double = 1) { server.stop(gracePeriod: gracePeriod) }

    /// Blocks until `stop` has finished.
    public func waitUntilStopped() { server.waitUntilStopped() }

    /// A fresh .p8: a P-256 private key as PEM PKCS#8 ("PRIVATE KEY"), the file Apple lets a
    /// developer download once per Sign in with Apple key.
    public static func makeP8() throws -> String {
        try PrivateKey.generate(.ec(.p256)).pem
    }

    /// The key in a .p8 file's text; throws unless it is a P-256 private key.
    public static func privateKey(p8: String) throws -> PrivateKey {
        let key: PrivateKey
        do {
            key = try PrivateKey(pem: p8)
        } catch {
            throw FakeAppleIDError("not a PEM private key: \(error)")
        }
        guard key.type == .ec(.p256) else { throw FakeAppleIDError("a .p8 holds a P-256 key, this is another kind") }
        return key
    }
}
