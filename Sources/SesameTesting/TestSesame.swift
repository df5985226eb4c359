import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import Synchronization

/// A Sesame to test against, built the way `sesame serve` builds it: a store of a `TestStoreKind`,
/// a `SesameApplication` on a manual clock, one bootstrapped tenant, and either the in-process
/// pipeline (`respond`, through `HTTPResponder` as the server's requests go) or a real
/// `HTTPServer` on a loopback port (`live`). Every suite's harness is a thin layer of its own
/// request helpers over this one.
public final class TestSesame: @unchecked Sendable {  // immutable after init; the parts are thread-safe
    /// How the application is reached.
    public enum Mode: Sendable {
        /// In-process, with the tenant at `publicURL`.
        case inProcess(publicURL: String)
        /// A real server on `127.0.0.1` and an ephemeral port, with the tenant at `http://localhost:<port>`.
        case live(limits: ServerLimits = ServerLimits())
    }

    /// What the application is built with beyond the store.
    public struct Options: Sendable {
        public var rateLimitPerMinute = 0
        public var pendingCeremonies = PendingCeremonyLimits()
        public var requireDPoPNonce = false
        /// Auth sessions in the store (as processes sharing PostgreSQL keep them) instead of memory.
        public var sessionsInStore = false
        /// The clock starts here (a fixed instant: tests are deterministic).
        public var start = Date(timeIntervalSince1970: 1_800_000_000)
        /// The bootstrap's random source (nil: the system's).
        public var bootstrapSeed: UInt64?
        /// The master key (nil: a fresh one).
        public var masterKey: MasterKey?
        /// Where stored audit-log batches also go (the file and webhook tests).
        public var auditSinks: [any AuditSink] = []
        /// The caps on SMS codes.
        public var smsLimits = SMSLimits()
        /// Breached-password detection on the bootstrapped tenant. Off by default here, as a tenant
        /// made before it was on by default has it: tests sign up with whatever passwords they
        /// need, and those about the default turn it on.
        public var breachDetection = false
        public init() {}
    }

    public let database: TestDatabase
    /// The store the application sees (the database's, or one wrapping it).
    public let store: any SesameStore
    public let clock: ManualClock
    public let application: SesameApplication
    public let responder: HTTPResponder
    public let bootstrap: BootstrapResult
    public let tenant: TenantRecord
    /// The live server; nil in process.
    public let server: HTTPServer?
    /// Every line the request log wrote (debug level and up).
    public let log = CapturedLog()
    public let masterKey: MasterKey

    /// - Parameter wrap: puts something in front of the database's store for the application
    ///   (say a store that interleaves a competing write).
    public init(
        _ mode: Mode, store kind: TestStoreKind = .memory, options: Options = Options(),
        wrap: (any SesameStore) -> any SesameStore = { $0 }
    ) throws {
        database = try TestDatabase(kind)
        store = wrap(database.store)
        clock = ManualClock(options.start)
        masterKey = try options.masterKey ?? MasterKey.generate()
        let sessions: (any AuthSessionStore)? =
            options.sessionsInStore
            ? StoreAuthSessions(
                store: store, maxPerRequester: options.pendingCeremonies.perAddress, random: SystemRandom())
            : nil
        // Composed as `sesame serve` composes, with effects that reach only this machine.
        let serviceRandom = SystemRandom()
        let services = SesameServices(
            store: store, masterKey: masterKey, clock: clock, random: serviceRandom,
            authSessions: sessions
                ?? InMemoryAuthSessions(
                    capacity: options.pendingCeremonies.total, maxPerRequester: options.pendingCeremonies.perAddress,
                    random: serviceRandom),
            effects: ServiceEffects(
                apple: LoopbackAppleEndpoints(), passwordRanges: LoopbackRangeLookup(), auditSinks: options.auditSinks),
            requireDPoPNonce: options.requireDPoPNonce, smsLimits: options.smsLimits)
        application = SesameApplication(
            services: services, masterKey: masterKey, rateLimitPerMinute: options.rateLimitPerMinute)
        let log = self.log
        let requestLog = RequestLog(level: .debug, sink: { line in log.append(line) })
        responder = HTTPResponder(router: application.router(), log: requestLog)
        let publicURL: String
        switch mode {
        case .inProcess(let url):
            server = nil
            publicURL = url
        case .live(let limits):
            var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
            configuration.limits = limits
            configuration.threads = 2
            let server = try HTTPServer(
                configuration: configuration, router: application.router(), metrics: application.metrics,
                log: requestLog)
            self.server = server
            publicURL = "http://localhost:\(server.port)"
        }
        let random: any RandomSource = options.bootstrapSeed.map { DeterministicRandom(seed: $0) } ?? SystemRandom()
        (bootstrap, tenant) = try Bootstrap.initialize(
            store: database.store, publicURL: publicURL, random: random, now: clock.now(),
            breachDetection: options.breachDetection)
    }

    deinit { server?.stop(gracePeriod: 1) }

    /// The live server; throws for a `TestSesame` in process.
    public var liveServer: HTTPServer {
        get throws {
            guard let server else { throw TestSesameError.notLive }
            return server
        }
    }

    /// The live server's port (0 in process).
    public var port: Int { server?.port ?? 0 }

    /// Answers `request` in process, as the server would (errors become their wire form).
    public func respond(_ request: HTTPRequest) -> HTTPResponse {
        var request = request
        if request.remoteAddress.isEmpty { request.remoteAddress = "127.0.0.1" }
        return responder.respond(to: request)
    }

    /// A software authenticator reporting `origin`.
    public static func authenticator(
        origin: Origin, counter: AuthenticatorConfiguration.SignCounter = .zero
    ) -> SoftwareAuthenticator {
        var configuration = AuthenticatorConfiguration()
        configuration.origin = origin
        configuration.signCounter = counter
        return SoftwareAuthenticator(configuration: configuration)
    }
}

/// What a `TestSesame` cannot do.
public enum TestSesameError: Error {
    /// A live server was asked of one that runs in process.
    case notLive
}

/// Log lines kept in memory.
public final class CapturedLog: Sendable {
    private let storage = Mutex<[String]>([])
    public init() {}
    public func append(_ line: String) { storage.withLock { $0.append(line) } }
    public var lines: [String] { storage.withLock { $0 } }
}
