import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import SesameTesting
import Testing

/// One routed response, with its JSON decoded for assertions.
struct APIReply {
    let status: Int
    let headers: HTTPHeaders
    let body: [UInt8]

    /// The body as a JSON object (empty when it is not one).
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
    /// The body as a JSON array of objects (empty when it is not one).
    var list: [[String: Any]] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [[String: Any]] ?? [] }
    /// `error` of an error body (`title` of a My Account problem).
    var error: String? { json["error"] as? String ?? json["title"] as? String }
    /// `error_description` of an error body (`detail` of a My Account problem).
    var errorDescription: String? { json["error_description"] as? String ?? json["detail"] as? String }
}

/// The stores the API tests run on (SesameTesting's kinds: memory, SQLite, and PostgreSQL when
/// `SESAME_TEST_POSTGRES_DSN` names a server).
typealias HarnessStore = TestStoreKind

extension TestStoreKind: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}

/// `TestSesame` in process over a store of `HarnessStore`'s kind, bootstrapped with one tenant at
/// `http://login.test:8080` (RP ID `login.test`), so the iOS origin `https://login.test` is only
/// accepted once a client has iOS settings; with the request and flow helpers the API suites use.
final class APIHarness: @unchecked Sendable {  // immutable after init
    static let publicURL = "http://login.test:8080"
    static let hostHeader = "login.test:8080"
    static let webOrigin = "http://login.test:8080"

    let sesame: TestSesame
    /// The database's own store (the application's, unless `interleaving` is in front of it).
    var store: any SesameStore { sesame.database.store }
    /// The store seen by the application when the harness interleaves a competing operation.
    let interleaving: InterleavingStore?
    var clock: ManualClock { sesame.clock }
    var application: SesameApplication { sesame.application }
    var responder: HTTPResponder { sesame.responder }
    var bootstrap: BootstrapResult { sesame.bootstrap }
    var tenant: TenantRecord { sesame.tenant }

    /// A harness on `kind`; with `interleave`, the application's store is an `InterleavingStore`;
    /// `wrap` puts another store in front of the database's for the application.
    init(
        store kind: HarnessStore = .memory, interleave: Bool = false,
        wrap: (any SesameStore) -> any SesameStore = { $0 },
        pendingCeremonies: PendingCeremonyLimits = PendingCeremonyLimits(), requireDPoPNonce: Bool = false,
        sessionsInStore: Bool = false, auditSinks: [any AuditSink] = [], smsLimits: SMSLimits = SMSLimits(),
        breachDetection: Bool = false
    ) throws {
        var options = TestSesame.Options()
        options.smsLimits = smsLimits
        options.breachDetection = breachDetection
        options.auditSinks = auditSinks
        options.pendingCeremonies = pendingCeremonies
        options.requireDPoPNonce = requireDPoPNonce
        options.sessionsInStore = sessionsInStore
        // The same tenant, clients and secrets in every harness, so the signing keys below fit.
        options.bootstrapSeed = Self.bootstrapSeed
        options.masterKey = try Self.masterKey()
        var interleaving: InterleavingStore?
        sesame = try TestSesame(.inProcess(publicURL: Self.publicURL), store: kind, options: options) { database in
            let store = wrap(database)
            guard interleave else { return store }
            let wrapped = InterleavingStore(store)
            interleaving = wrapped
            return wrapped
        }
        self.interleaving = interleaving
        // Generating the tenant's keys (RSA above all) would be most of a test's time.
        let keys = try Self.signingKeys.get()
        try sesame.database.store.write(.durable) { transaction in
            for key in keys { try transaction.signingKeys.insert(key) }
        }
    }

    static let bootstrapSeed: UInt64 = 2_027

    static func masterKey() throws -> MasterKey { try MasterKey(bytes: Array(repeating: 7, count: 32)) }

    /// Another server process on the same database: its own application, configuration cache and
    /// signing-key cache, with auth sessions in the store.
    func peer() throws -> HTTPResponder {
        let other = SesameApplication(
            store: store, masterKey: try Self.masterKey(), clock: clock,
            sessions: StoreAuthSessions(store: store, random: SystemRandom()), rateLimitPerMinute: 0)
        return HTTPResponder(router: other.router(), log: RequestLog(level: .error, sink: { _ in }))
    }

    /// The same tenant, clients and secrets in every harness (a seeded random source), so the
    /// signing keys below, sealed for that tenant, fit every harness.
    static func bootstrap(_ store: any SesameStore, now: Date) throws -> (BootstrapResult, TenantRecord) {
        try Bootstrap.initialize(
            store: store, publicURL: publicURL, random: DeterministicRandom(seed: bootstrapSeed), now: now)
    }

    /// The tenant's signing keys of every algorithm, made once per test process.
    static let signingKeys = Result<[SigningKeyRecord], any Error> {
        let store = InMemoryStore()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let (_, tenant) = try bootstrap(store, now: now)
        let ring = SigningKeyRing(
            store: store, masterKey: try masterKey(), clock: ManualClock(now), random: SystemRandom())
        for algorithm in SigningKeyRing.algorithms { _ = try ring.signer(tenantID: tenant.id, algorithm: algorithm) }
        return try store.read { try $0.signingKeys.list(tenantID: tenant.id) }
    }

    // MARK: Requests

    /// Routes one request; `json` is sent as the body with `Content-Type: application/json`.
    func send(
        _ method: HTTPMethod, _ target: String, json: String? = nil, token: String? = nil,
        host: String = APIHarness.hostHeader, contentType: String = "application/json",
        authorization: String? = nil, headers extra: [(String, String)] = [], via other: HTTPResponder? = nil,
        clientIP: String? = nil
    ) -> APIReply {
        var fields = HTTPHeaders()
        fields.add(name: "Host", value: host)
        if json != nil { fields.add(name: "Content-Type", value: contentType) }
        if let token { fields.add(name: "Authorization", value: "Bearer \(token)") }
        if let authorization { fields.add(name: "Authorization", value: authorization) }
        for (name, value) in extra { fields.add(name: name, value: value) }
        var request = HTTPRequest(method: method, target: target, headers: fields, body: Array((json ?? "").utf8))
        if let clientIP {
            request.remoteAddress = clientIP
            request.clientIP = clientIP
        }
        let response = (other ?? responder).respond(to: request)
        return APIReply(status: response.status, headers: response.headers, body: response.body)
    }

    /// JSON text of a value made of dictionaries, arrays, strings, numbers, booleans and NSNull.
    static func encode(_ value: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: The outbox

    /// The text of the newest message to `recipient` (of `template`, when given), read through
    /// `GET /api/v2/outbox`.
    func outboxText(to recipient: String, template: String? = nil) throws -> String? {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<"\u{80}"))
        allowed.insert(charactersIn: "-._~@")
        let query = recipient.addingPercentEncoding(withAllowedCharacters: allowed) ?? recipient
        let list = send(.get, "/api/v2/outbox?to=\(query)", token: try managementToken()).list
        let message = list.first { template == nil || $0["template"] as? String == template }
        return message?["text"] as? String
    }

    /// The `ticket=` of the link in the newest message of `template` to `recipient`.
    func outboxTicket(to recipient: String, template: String) throws -> String? {
        guard let text = try outboxText(to: recipient, template: template), let range = text.range(of: "ticket=") else {
            return nil
        }
        return String(text[range.upperBound...].prefix { !$0.isWhitespace })
    }

    // MARK: Tokens

    /// A Management API token from the bootstrap's m2m client (every scope unless `scope` narrows it).
    func managementToken(scope: String? = nil) throws -> String {
        try application.tokens.token(
            tenant: tenant,
            request: TokenCall(
                grantType: "client_credentials",
                credentials: ClientCredentials(
                    clientID: bootstrap.managementClientID, clientSecret: bootstrap.managementClientSecret),
                fields: ["scope": scope, "audience": TokenService.managementAudience(tenant)])
        ).accessToken
    }

    /// A software authenticator reporting `origin` (the tenant's web origin by default).
    func authenticator(origin: Origin? = nil) -> SoftwareAuthenticator {
        var configuration = AuthenticatorConfiguration()
        configuration.origin = origin ?? .web(Self.webOrigin)
        return SoftwareAuthenticator(configuration: configuration)
    }

    /// What a passkey signup or login returned.
    struct Session {
        let accessToken: String
        let userID: String
    }

    /// Passkey signup through `/passkey/register` and the webauthn grant, asking for a My Account token.
    func signUp(
        _ authenticator: SoftwareAuthenticator, email: String, clientID: String? = nil, host: String = hostHeader
    ) throws -> Session {
        let client = clientID ?? bootstrap.clientID
        let challenge = send(
            .post, "/passkey/register",
            json: Self.encode(["client_id": client, "user_profile": ["email": email]]), host: host)
        guard challenge.status == 200 else { throw APIHarnessError.unexpected("signup challenge", challenge) }
        let credential = try authenticator.makeCredential(optionsJSON: challenge.body)
        return try exchange(
            authSession: challenge.json["auth_session"] as? String ?? "", response: credential.jsonString,
            clientID: client, host: host)
    }

    /// Passkey login through `/passkey/challenge` and the webauthn grant, asking for a My Account token.
    func logIn(_ authenticator: SoftwareAuthenticator, clientID: String? = nil, host: String = hostHeader) throws
        -> Session
    {
        let client = clientID ?? bootstrap.clientID
        let challenge = send(.post, "/passkey/challenge", json: Self.encode(["client_id": client]), host: host)
        guard challenge.status == 200 else { throw APIHarnessError.unexpected("login challenge", challenge) }
        let assertion = try authenticator.getAssertion(optionsJSON: challenge.body)
        return try exchange(
            authSession: challenge.json["auth_session"] as? String ?? "", response: assertion.jsonString,
            clientID: client, host: host)
    }

    private func exchange(authSession: String, response: String, clientID: String, host: String) throws -> Session {
        let reply = webAuthnGrant(
            authSession: authSession, response: response, clientID: clientID, host: host, scope: "openid",
            audience: TokenService.myAccountAudience(tenant))
        guard reply.status == 200, let token = reply.json["access_token"] as? String else {
            throw APIHarnessError.unexpected("token", reply)
        }
        return Session(accessToken: token, userID: try Self.subject(of: token))
    }

    /// The webauthn grant for a ceremony's auth session and response (`audience` nil: none sent).
    func webAuthnGrant(
        authSession: String, response: String, clientID: String? = nil, host: String = hostHeader, scope: String,
        audience: String? = nil
    ) -> APIReply {
        var body: [String: Any] = [
            "grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": clientID ?? bootstrap.clientID,
            "auth_session": authSession, "scope": scope,
        ]
        if let audience { body["audience"] = audience }
        let text = Self.encode(body)
        // authn_response goes in as the authenticator wrote it.
        let json = String(text.dropLast()) + #","authn_response":"# + response + "}"
        return send(.post, "/oauth/token", json: json, host: host)
    }

    /// Passkey signup asking for `scope` (no audience): the whole token response.
    func signUpForTokens(
        _ authenticator: SoftwareAuthenticator, email: String, scope: String = "openid profile email offline_access"
    ) throws -> [String: Any] {
        let challenge = send(
            .post, "/passkey/register",
            json: Self.encode(["client_id": bootstrap.clientID, "user_profile": ["email": email]]))
        guard challenge.status == 200 else { throw APIHarnessError.unexpected("signup challenge", challenge) }
        let credential = try authenticator.makeCredential(optionsJSON: challenge.body)
        let reply = webAuthnGrant(
            authSession: challenge.json["auth_session"] as? String ?? "", response: credential.jsonString, scope: scope)
        guard reply.status == 200 else { throw APIHarnessError.unexpected("token", reply) }
        return reply.json
    }

    /// Passkey login asking for `scope` (no audience): the whole token response.
    func logInForTokens(_ authenticator: SoftwareAuthenticator, scope: String = "openid offline_access") throws
        -> [String: Any]
    {
        let challenge = send(.post, "/passkey/challenge", json: Self.encode(["client_id": bootstrap.clientID]))
        guard challenge.status == 200 else { throw APIHarnessError.unexpected("login challenge", challenge) }
        let assertion = try authenticator.getAssertion(optionsJSON: challenge.body)
        let reply = webAuthnGrant(
            authSession: challenge.json["auth_session"] as? String ?? "", response: assertion.jsonString, scope: scope)
        guard reply.status == 200 else { throw APIHarnessError.unexpected("token", reply) }
        return reply.json
    }

    /// Enrolls another passkey on `authenticator` through My Account; returns the new method's id.
    func enroll(_ authenticator: SoftwareAuthenticator, accessToken: String) throws -> String {
        let challenge = send(.post, "/me/v1/authentication-methods", json: #"{"type":"passkey"}"#, token: accessToken)
        guard challenge.status == 202 else { throw APIHarnessError.unexpected("enrollment challenge", challenge) }
        let credential = try authenticator.makeCredential(optionsJSON: challenge.body)
        let body =
            #"{"auth_session":"\#(challenge.json["auth_session"] as? String ?? "")","authn_response":"#
            + credential.jsonString + "}"
        let created = send(
            .post, "/me/v1/authentication-methods/passkey%7Cnew/verify", json: body, token: accessToken)
        guard created.status == 201, let id = created.json["id"] as? String else {
            throw APIHarnessError.unexpected("enrollment", created)
        }
        return id
    }

    /// `grant_type=refresh_token` for the native client, optionally narrowing `scope`.
    func refresh(_ token: String, scope: String? = nil) -> APIReply {
        var body: [String: Any] = [
            "grant_type": "refresh_token", "client_id": bootstrap.clientID, "refresh_token": token,
        ]
        if let scope { body["scope"] = scope }
        return send(.post, "/oauth/token", json: Self.encode(body))
    }

    /// The `sub` claim of a JWT (read without verification: the server already verified it).
    static func subject(of token: String) throws -> String {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { throw APIHarnessError.malformedToken }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64),
            let claims = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let subject = claims["sub"] as? String
        else { throw APIHarnessError.malformedToken }
        return subject
    }

    // MARK: A second tenant

    /// Another tenant in the same store, at `other.test`, with its own m2m client; returns a
    /// Management API token of that tenant.
    func addSecondTenant() throws -> (TenantRecord, token: String) {
        let now = clock.now()
        let other = TenantRecord(
            id: "tnt_other", name: "other.test", domain: "other.test", rpID: "other.test",
            publicURL: "https://other.test", createdAt: now, updatedAt: now)
        let secret = "other-management-secret"
        let audience = TokenService.managementAudience(other)
        let management = ClientRecord(
            tenantID: other.id, id: "other-m2m", name: "Other m2m", appType: .nonInteractive,
            grantTypes: [.clientCredentials], tokenEndpointAuthMethod: .clientSecretPost,
            secretHash: Digest.sha256(Array(secret.utf8)),
            grants: [ClientGrantSettings(audience: audience, scopes: Bootstrap.managementScopes)], createdAt: now,
            updatedAt: now)
        try store.write(.durable) { transaction in
            try transaction.tenants.insert(other)
            try transaction.clients.insert(management)
        }
        let token = try application.tokens.token(
            tenant: other,
            request: TokenCall(
                grantType: "client_credentials",
                credentials: ClientCredentials(clientID: management.id, clientSecret: secret),
                fields: ["audience": audience])
        ).accessToken
        return (other, token)
    }
}

enum APIHarnessError: Error, CustomStringConvertible {
    case unexpected(String, APIReply)
    case malformedToken

    var description: String {
        switch self {
        case .unexpected(let step, let reply):
            return "\(step) answered \(reply.status): \(String(decoding: reply.body, as: UTF8.self))"
        case .malformedToken: return "malformed JWT"
        }
    }
}
