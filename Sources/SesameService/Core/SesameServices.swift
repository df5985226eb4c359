import Foundation
import SesameCrypto
import SesameStore
import WebAuthn

/// The sign-in methods the token endpoint's grants are built from.
struct GrantServices {
    let passkeys: PasskeyService
    let passwords: PasswordService
    let mfa: MFAService
    let deviceKeys: DeviceKeyService
    let enrollmentTickets: PasskeyEnrollmentTickets
    let apple: AppleSignInLogin
}

/// What the services reach outside the process for. Each is injected, so a test decides what
/// answers; the server passes the ones that speak HTTP.
public struct ServiceEffects: Sendable {
    /// Apple's endpoints (keys, token redemption) for Sign in with Apple.
    public var apple: any AppleEndpoints
    /// A tenant's k-anonymity range endpoint for breached passwords (nil: the offline corpus only).
    public var passwordRanges: (any PasswordRangeLookup)?
    /// Where emails and SMS go (nil: the outbox, in the store).
    public var messageSender: (any MessageSender)?
    /// Where audit entries go besides the store.
    public var auditSinks: [any AuditSink]

    public init(
        apple: any AppleEndpoints = UnreachableAppleEndpoints(), passwordRanges: (any PasswordRangeLookup)? = nil,
        messageSender: (any MessageSender)? = nil, auditSinks: [any AuditSink] = []
    ) {
        self.apple = apple
        self.passwordRanges = passwordRanges
        self.messageSender = messageSender
        self.auditSinks = auditSinks
    }
}

/// Every service of one Sesame, built in one place over one store, clock, random source and
/// master key. The HTTP layer is given this value and builds no service itself.
public struct SesameServices: Sendable {
    public let store: any SesameStore
    public let clock: any ServiceClock
    public let random: any RandomSource
    /// The audit log (docs/audit-log.md).
    public let audit: AuditLog
    public let events: AuthEventRecorder
    public let keyRing: SigningKeyRing
    /// Where emails and SMS go.
    public let messages: any MessageSender
    /// Opens the outbox's sealed texts.
    public let messageSealer: MessageSealer
    public let passkeys: PasskeyService
    public let passwords: PasswordService
    public let mfa: MFAService
    /// Legacy device keys (registration at My Account, re-authentication at the token endpoint).
    public let deviceKeys: DeviceKeyService
    /// The `passkey_enrollment` prompts and the hosted page their links open.
    public let enrollmentTickets: PasskeyEnrollmentTickets
    /// Account security upgrades (docs/account-upgrades.md).
    public let upgrades: AccountUpgradeService
    public let tokens: TokenService
    public let management: ManagementService
    public let myAccount: MyAccountService
    /// The migration's method hints and the passkey prompt's snooze.
    public let methodHints: MethodHintService
    /// SSO sessions of the hosted pages.
    public let sessions: SSOSessionService
    /// `/authorize`, codes and RP-initiated logout.
    public let authorization: AuthorizationService
    /// The sign-in steps of the hosted pages.
    public let hosted: HostedLoginService
    /// The admin page's setup links.
    public let adminAccess: AdminAccess
    public let tenancy: TenancyService

    /// - Parameter authSessions: where pending passkey ceremonies live.
    /// - Parameter requireDPoPNonce: every DPoP proof must carry the server's nonce (RFC 9449 §8).
    /// - Parameter passwordHashGate: how many password hashes run at once, and how long others wait.
    /// - Parameter background: where full batches of events, audit entries and last-used times are
    ///   written (nil: by the caller that filled them).
    public init(
        store: any SesameStore, masterKey: MasterKey, clock: any ServiceClock, random: any RandomSource,
        authSessions: any AuthSessionStore, effects: ServiceEffects = ServiceEffects(),
        attestation: AttestationPolicy = AttestationPolicy(), requireDPoPNonce: Bool = false,
        passwordHashGate: PasswordHashGate = PasswordHashGate(), smsLimits: SMSLimits = SMSLimits(),
        background: Bool = true
    ) {
        // Tenants, clients and connections are read on every request and change only through the
        // Management API: keep them in memory (docs/BENCHMARKS.md has the profile).
        let store: any SesameStore = store is CachingStore ? store : CachingStore(store)
        self.store = store
        self.clock = clock
        self.random = random
        let audit = AuditLog(
            store: store, clock: clock, random: random, sinks: effects.auditSinks,
            background: background ? BackgroundFlush(label: "sesame.audit.flush") : nil)
        self.audit = audit
        let events = AuthEventRecorder(
            store: store, random: random, audit: audit,
            background: background ? BackgroundFlush(label: "sesame.events.flush") : nil)
        self.events = events
        let keyRing = SigningKeyRing(store: store, masterKey: masterKey, clock: clock, random: random)
        self.keyRing = keyRing
        let sealer = MessageSealer(masterKey: masterKey)
        self.messageSealer = sealer
        let messages =
            effects.messageSender ?? OutboxSender(store: store, sealer: sealer, clock: clock, random: random)
        self.messages = messages
        let passkeys = PasskeyService(
            store: store, clock: clock, random: random, sessions: authSessions, events: events,
            attestation: attestation,
            usage: UsageRecorder(
                store: store, background: background ? BackgroundFlush(label: "sesame.usage.flush") : nil),
            notices: CredentialNotices(messages: messages))
        self.passkeys = passkeys
        let passwords = PasswordService(
            store: store, clock: clock, random: random, events: events, messages: messages, gate: passwordHashGate,
            ranges: effects.passwordRanges)
        self.passwords = passwords
        let mfa = MFAService(
            store: store, clock: clock, random: random, events: events, messages: messages,
            keys: MFAKeys(masterKey: masterKey), smsLimits: smsLimits)
        self.mfa = mfa
        let deviceKeys = DeviceKeyService(
            store: store, clock: clock, random: random, events: events, notices: passkeys.notices)
        self.deviceKeys = deviceKeys
        let enrollmentTickets = PasskeyEnrollmentTickets(
            store: store, clock: clock, random: random, passkeys: passkeys)
        self.enrollmentTickets = enrollmentTickets
        let appleKeys = AppleKeySealer(masterKey: masterKey)
        let verifier = AppleIdentityVerifier(endpoints: effects.apple)
        self.upgrades = AccountUpgradeService(
            store: store, clock: clock, random: random, passwords: passwords, mfa: mfa, passkeys: passkeys,
            events: events, apple: verifier, sealer: appleKeys)
        let apple = AppleSignInLogin(
            access: StoreAccess(store: store), clock: clock, verifier: verifier,
            redemption: AppleCodeRedemption(endpoints: effects.apple, verifier: verifier, sealer: appleKeys),
            events: events)
        let tokens = TokenService(
            store: store, clock: clock, random: random, keyRing: keyRing, events: events,
            dpop: DPoPVerifier(nonceKey: masterKey.derivedKey(purpose: "dpop-nonce"), requireNonce: requireDPoPNonce),
            methods: GrantServices(
                passkeys: passkeys, passwords: passwords, mfa: mfa, deviceKeys: deviceKeys,
                enrollmentTickets: enrollmentTickets, apple: apple))
        self.tokens = tokens
        self.management = ManagementService(
            store: store, clock: clock, random: random, tokens: tokens, passwords: passwords, sealer: sealer,
            appleKeys: appleKeys, messages: messages)
        self.myAccount = MyAccountService(
            store: store, clock: clock, passkeys: passkeys, tokens: tokens,
            notices: CredentialNotices(messages: messages))
        self.methodHints = MethodHintService(store: store, clock: clock)
        let sessions = SSOSessionService(store: store, clock: clock, random: random, audit: audit)
        self.sessions = sessions
        let authorization = AuthorizationService(
            store: store, clock: clock, random: random, tokens: tokens, sessions: sessions)
        self.authorization = authorization
        self.hosted = HostedLoginService(
            store: store, clock: clock, passkeys: passkeys, passwords: passwords, mfa: mfa,
            authorization: authorization,
            verification: EmailVerification(store: store, clock: clock, random: random, messages: messages),
            recovery: AccountRecovery(
                store: store, clock: clock, random: random, messages: messages, keys: MFAKeys(masterKey: masterKey),
                events: events))
        self.adminAccess = AdminAccess(store: store, clock: clock, random: random)
        self.tenancy = TenancyService(store: store)
    }
}
