import Foundation
import SesameCrypto
import SesameService
import SesameStore
import WebAuthn

/// The composed server: services over one store, and the router that exposes them. Handlers stay
/// thin: they read the request, resolve the tenant, call one service method and encode its result.
@dynamicMemberLookup
public final class SesameApplication: Sendable {
    /// Every service, built in one place (`SesameServices`); `application.passkeys` and the like
    /// read them from it.
    public let services: SesameServices
    public let store: any SesameStore
    public let clock: any ServiceClock
    /// The key of the hosted pages' CSRF tokens.
    let csrfKey: [UInt8]
    let random: any RandomSource
    public let metrics: Metrics
    /// Per-client-address limits of the routes anyone can call without a token (nil: off).
    public let rateLimits: PublicRateLimits?
    /// SHA-256 of the token that reads `/metrics` on the API listener (nil: not served there).
    let metricsTokenHash: [UInt8]?
    let logins: CounterFamily

    /// - Parameter rateLimitPerMinute: requests per client address per minute in each group of
    ///   public routes (`PublicRouteGroup`); 0 turns the limits off.
    /// - Parameter metricsToken: the bearer token that reads `/metrics` on the API listener; nil
    ///   keeps `/metrics` off it (serve `metricsRouter()` on a listener of its own instead).
    /// - Parameter pendingCeremonies: the in-memory auth sessions' limits (used when `sessions` is nil).
    /// - Parameter requireDPoPNonce: every DPoP proof must carry the server's nonce (RFC 9449 §8).
    /// - Parameter passwordHashGate: how many password hashes run at once, and how long others wait.
    /// - Parameter messageSender: where emails and SMS go (nil: the outbox, in the store).
    /// - Parameter passwordRanges: asks a tenant's k-anonymity range endpoint (breached passwords);
    ///   nil, the default, relies on the offline corpus.
    /// - Parameter appleEndpoints: Apple's keys and token endpoints. The default reaches nothing;
    ///   `sesame serve` passes `HTTPAppleEndpoints` and `HTTPRangeLookup`, and a test server
    ///   passes loopback-only ones.
    public convenience init(
        store: any SesameStore, masterKey: MasterKey, clock: any ServiceClock = SystemClock(),
        random: any RandomSource = SystemRandom(), sessions: (any AuthSessionStore)? = nil,
        rateLimitPerMinute: Int = 600, metrics: Metrics = Metrics(),
        attestation: AttestationPolicy = AttestationPolicy(), metricsToken: String? = nil,
        pendingCeremonies: PendingCeremonyLimits = PendingCeremonyLimits(), requireDPoPNonce: Bool = false,
        passwordHashGate: PasswordHashGate = PasswordHashGate(), messageSender: (any MessageSender)? = nil,
        passwordRanges: (any PasswordRangeLookup)? = nil,
        appleEndpoints: any AppleEndpoints = UnreachableAppleEndpoints(), auditSinks: [any AuditSink] = [],
        smsLimits: SMSLimits = SMSLimits()
    ) {
        let services = SesameServices(
            store: store, masterKey: masterKey, clock: clock, random: random,
            authSessions: sessions
                ?? InMemoryAuthSessions(
                    capacity: pendingCeremonies.total, maxPerRequester: pendingCeremonies.perAddress, random: random),
            effects: ServiceEffects(
                apple: appleEndpoints, passwordRanges: passwordRanges, messageSender: messageSender,
                auditSinks: auditSinks),
            attestation: attestation, requireDPoPNonce: requireDPoPNonce, passwordHashGate: passwordHashGate,
            smsLimits: smsLimits)
        self.init(
            services: services, masterKey: masterKey, rateLimitPerMinute: rateLimitPerMinute, metrics: metrics,
            metricsToken: metricsToken)
    }

    /// The server in front of services composed elsewhere (`sesame serve` and the test server build
    /// their `SesameServices` themselves): this adds only what HTTP needs, the hosted pages' CSRF
    /// key, the public routes' rate limits and the metrics.
    public init(
        services: SesameServices, masterKey: MasterKey, rateLimitPerMinute: Int = 600, metrics: Metrics = Metrics(),
        metricsToken: String? = nil
    ) {
        self.metricsTokenHash = metricsToken.map { Digest.sha256(Array($0.utf8)) }
        self.store = services.store
        self.clock = services.clock
        let random = services.random
        self.services = services
        let (audit, mfa) = (services.audit, services.mfa)
        self.csrfKey = masterKey.derivedKey(purpose: "hosted-page-csrf")
        self.random = random
        self.metrics = metrics
        self.rateLimits = rateLimitPerMinute > 0 ? PublicRateLimits(requestsPerMinute: rateLimitPerMinute) : nil
        self.logins = metrics.counter(
            "sesame_logins_total", help: "Token grants by grant type and outcome.", labels: ["method", "outcome"])
        metrics.collectedCounter(
            "sesame_sms_limited_total", help: "SMS codes not sent because a sending limit was reached, by limit.",
            labels: ["cap"]
        ) { [mfa] in mfa.smsLimited.all.map { ([$0.cap.rawValue], UInt64($0.count)) } }
        metrics.collectedCounter(
            "sesame_audit_log_dropped_total",
            help: "Audit-log entries lost: sink=store while the store was down, else by that sink (docs/audit-log.md).",
            labels: ["sink"]
        ) { [audit] in
            [(["store"], UInt64(audit.dropped))]
                + audit.sinks.map { ([$0.metricsName], UInt64(max(0, $0.droppedEntries))) }
        }
    }

    /// Writes the batched auth events, audit entries and last-used times, prunes the audit log
    /// when due, and drops expired auth sessions (every second while serving, and at stop).
    public func flush() {
        services.passkeys.usage.flush()
        services.events.flush()
        services.audit.flush()
        services.passkeys.sweepExpiredSessions()
        services.passwords.sweep()
        services.sessions.sweep()
    }

    /// Every route of the server, in groups that share a context and a middleware chain:
    ///
    /// | group | chain, in order | errors |
    /// |---|---|---|
    /// | `/passkey/*` | ceremony rate limit → tenant | OAuth JSON |
    /// | `/oauth/*` | token rate limit → tenant | OAuth JSON |
    /// | `/mfa/*` | token rate limit → tenant → mfa token or MFA API token in the handler | OAuth JSON |
    /// | `/dbconnections/*` | token rate limit → tenant | Auth0's database shape |
    /// | `/userinfo` | token rate limit → tenant → principal (userinfo audience) | OAuth JSON |
    /// | discovery, well-known, `/password-rules`, `/openapi.json`, `/healthz` | page rate limit → tenant (not `/healthz`) | OAuth JSON |
    /// | `/` | page rate limit → tenant if any | HTML |
    /// | `/authorize`, `/oidc/logout`, `/u/*`, `/account*`, change-password | page rate limit → tenant → browser (cookies, CSRF, nonce) | hosted page |
    /// | `/api/v2/*` | tenant → principal (Management audience) → scope in the handler | OAuth JSON |
    /// | `/me/v1/upgrades/*` | token rate limit → tenant → bearer token, password or upgrade token in the handler | OAuth JSON |
    /// | `/me/v1/*` | tenant → principal (My Account audience) → scope in the handler | RFC 9457 |
    public func router() -> Router {
        var router = Router()
        let root = RouteGroup.root()

        var system = root.limited(by: limiter(.pages))
        systemController.register(to: &system)
        router.add(system)
        var page = RouteGroup.root(errorStyle: .html).limited(by: limiter(.pages)).derived {
            [tenancy = services.tenancy] request, context in
            PageContext(request: context, tenant: try? tenancy.tenant(host: request.host))
        }
        LandingController(tenancy: services.tenancy, random: random).register(to: &page)
        router.add(page)
        var hostedPages = RouteGroup.root(errorStyle: .html, pathPrefix: "/u/").limited(by: limiter(.pages))
            .tenant(services.tenancy)
            .hosted(csrfKey: csrfKey, random: random) { error, context in
                HostedController.errorPage(error, context: context)
            }
        let hostedController = HostedController(
            hosted: services.hosted, authorization: services.authorization, sessions: services.sessions,
            enrollmentTickets: services.enrollmentTickets,
            passwords: services.passwords, tenancy: services.tenancy, upgrades: services.upgrades, browser: browser)
        hostedController.register(to: &hostedPages)
        hostedController.registerPasswordPages(to: &hostedPages)
        AccountController(
            myAccount: services.myAccount, mfa: services.mfa, passwords: services.passwords,
            sessions: services.sessions,
            upgrades: services.upgrades, browser: browser, verification: services.hosted.verification
        ).register(to: &hostedPages)
        AdminController(management: services.management, adminAccess: services.adminAccess, browser: browser)
            .register(to: &hostedPages)
        AdminUsersController(management: services.management, browser: browser).register(to: &hostedPages)
        hostedController.registerRecovery(to: &hostedPages)
        router.add(hostedPages)
        var discovery = root.limited(by: limiter(.pages)).tenant(services.tenancy)
        DiscoveryController(tokens: services.tokens, tenancy: services.tenancy).register(to: &discovery)
        PasswordRulesController(passwords: services.passwords).register(to: &discovery)
        OpenAPIController().register(to: &discovery)
        router.add(discovery)

        var ceremonies = root.limited(by: limiter(.ceremonies)).tenant(services.tenancy)
        PasskeyController(passkeys: services.passkeys).register(to: &ceremonies)
        DeviceKeyController(tokens: services.tokens, deviceKeys: services.deviceKeys, methodHints: services.methodHints)
            .register(to: &ceremonies)
        router.add(ceremonies)
        let tokenRoutes = root.limited(by: limiter(.tokens)).tenant(services.tenancy)
        var oauth = tokenRoutes
        TokenController(tokens: services.tokens, clock: clock, logins: logins).register(to: &oauth)
        router.add(oauth)
        var mfaRoutes = tokenRoutes
        MFAController(mfa: services.mfa, tokens: services.tokens).register(to: &mfaRoutes)
        router.add(mfaRoutes)
        var database = RouteGroup.root(errorStyle: .database).limited(by: limiter(.tokens)).tenant(services.tenancy)
        DatabaseConnectionController(passwords: services.passwords).register(to: &database)
        router.add(database)
        var userInfo = tokenRoutes.principal(services.tokens, audience: TokenService.userInfoAudience)
        UserInfoController(tokens: services.tokens).register(to: &userInfo)
        router.add(userInfo)

        var management = RouteGroup.root(pathPrefix: "/api/v2/").tenant(services.tenancy)
            .principal(services.tokens, audience: TokenService.managementAudience).audited(services.management)
        let managementService = services.management
        ClientsController(management: managementService).register(to: &management)
        ConnectionsController(management: managementService).register(to: &management)
        UsersController(management: managementService).register(to: &management)
        TenantController(management: managementService).register(to: &management)
        ClientGrantsController(management: managementService).register(to: &management)
        ResourceServersController(management: managementService).register(to: &management)
        MigrationManagementController(management: managementService).register(to: &management)
        LogsController(management: managementService).register(to: &management)
        router.add(management)

        // Before /me/: the upgrades answer in OAuth JSON, and authorize takes a password instead of a token.
        var upgrades = RouteGroup.root(pathPrefix: "/me/v1/upgrades/").limited(by: limiter(.tokens)).tenant(
            services.tenancy)
        UpgradeController(tokens: services.tokens, upgrades: services.upgrades).register(to: &upgrades)
        router.add(upgrades)

        var myAccount = RouteGroup.root(errorStyle: .problem, pathPrefix: "/me/").tenant(services.tenancy)
            .principal(services.tokens, audience: TokenService.myAccountAudience)
        MyAccountController(myAccount: services.myAccount).register(to: &myAccount)
        DeviceKeyAccountController(
            myAccount: services.myAccount, deviceKeys: services.deviceKeys, methodHints: services.methodHints
        ).register(to: &myAccount)
        router.add(myAccount)
        return router
    }

    /// The signed-in browser of the account and admin pages.
    var browser: BrowserSession { BrowserSession(sessions: services.sessions, authorization: services.authorization) }

    /// `/healthz` and `/metrics`.
    var systemController: SystemController {
        SystemController(tenancy: services.tenancy, metrics: metrics, metricsTokenHash: metricsTokenHash)
    }

    /// The routes of a separate metrics listener: `/metrics` and `/healthz`, with no token. Bind it
    /// to an address only the scraper reaches (loopback or a private network).
    public func metricsRouter() -> Router {
        var router = Router()
        systemController.register(to: &router)
        return router
    }

    /// A service of `services`, by its name there (`application.tokens`).
    public subscript<Service>(dynamicMember service: KeyPath<SesameServices, Service>) -> Service {
        services[keyPath: service]
    }

    /// The per-address limiter of a group of public routes (nil when limits are off).
    func limiter(_ group: PublicRouteGroup) -> RateLimiter? { rateLimits?.limiter(group) }
}

extension HTTPResponse {
    /// JSON with `Cache-Control: no-store` (token responses, RFC 6749 §5.1).
    static func noStoreJSON<T: Encodable>(_ value: T, status: Int = 200) throws -> HTTPResponse {
        var response = try HTTPResponse.json(value, status: status)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        response.headers.replaceOrAdd(name: "Pragma", value: "no-cache")
        return response
    }
}
