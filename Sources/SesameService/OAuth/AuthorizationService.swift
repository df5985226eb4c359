import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import WebAuthn

/// What `/authorize` decided.
public enum AuthorizeDecision: Sendable {
    /// Send the browser back to the client now: a code from the session, or an error.
    case respond(AuthorizationResponse)
    /// Show the sign-in (or signup) page for the pending request `handle`.
    case signIn(handle: String, request: AuthorizationRequest)
}

/// A pending `/authorize` request while the user signs in at the hosted pages.
public struct PendingAuthorization: Sendable {
    public var handle: String
    public var request: AuthorizationRequest
    public var client: ClientRecord
    public var connection: ConnectionRecord
    /// The identifier the user gave at the first step (identifier-first), if any yet.
    public var identifier: String?
    /// A password step passed and a second factor is due (its mfa token is derived from the
    /// handle, `HostedLoginService.mfaToken(for:)`, so no token is stored in the clear).
    public var secondFactorDue: Bool
    /// A finished sign-in waiting while the passkey-enrollment prompt is shown.
    public var held: HeldSignIn?
    /// An account recovery whose emailed code was right, for a user with a second factor: the
    /// factor (or a recovery code) is asked before a new way in is set.
    public var recovering = false
}

/// A sign-in that is done but not yet handed to the client: the passkey-enrollment prompt shows
/// first. `reason` says which prompt (the migration issue adds its own reasons).
public struct HeldSignIn: Sendable, Equatable {
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// After a password sign-in, where the connection has progressive enrollment on.
        case progressive
        /// After a passkey from another device (hybrid), where local enrollment is on.
        case localEnrollment = "local_enrollment"
        /// Account recovery: the user proved their email and must set a new way in (no skipping).
        case recovery
        /// After a sign-in with a weak or breached password: the account security upgrades (docs/account-upgrades.md).
        case upgrade
        /// A second factor set up or a recovery code used: the new recovery code is shown until the
        /// user says they saved it.
        case saveRecoveryCode = "save_recovery_code"
    }

    public var userID: String
    public var amr: [String]
    public var authTime: Date
    public var reason: Reason
}

/// The pending request as stored: the request, the browser it belongs to, and the progress.
struct AuthorizationTransaction: Sendable, Equatable {
    static let lifetime: TimeInterval = 3_600
    /// Pending requests one browser may hold (the page rate limit bounds browsers without a cookie).
    static let maxPerBrowser = 20

    var request: AuthorizationRequest
    /// SHA-256 of the browser's device cookie: another browser cannot continue it.
    var deviceHash: [UInt8]
    var identifier: String?
    var secondFactorDue = false
    var held: HeldSignIn?
    var recovering = false

    static func hash(_ handle: String) -> [UInt8] { Digest.sha256(Array("sesame-authorize\u{0}\(handle)".utf8)) }
    static func deviceHash(_ device: String) -> [UInt8] { Digest.sha256(Array("sesame-device\u{0}\(device)".utf8)) }

    init(request: AuthorizationRequest, deviceHash: [UInt8]) {
        self.request = request
        self.deviceHash = deviceHash
    }

}

extension AuthorizationTransaction: TicketPayload {
    static let kind = TicketKind.authorizationTransaction
    static let recordFields = RecordFields<AuthorizationTransaction>(
        blank: AuthorizationTransaction(request: AuthorizationRequest.blank, deviceHash: []),
        [
            .field("request", \.request),
            .field("deviceHash", \.deviceHash),
            .field("identifier", \.identifier),
            .field("secondFactorDue", \.secondFactorDue),
            .field("held", \.held),
            // Written since the recovery asks for the second factor; a request begun before has none.
            .custom(
                "recovering", minimumBytes: 0, write: { transaction, writer in writer.bool(transaction.recovering) },
                read: { transaction, reader, field throws(RecordReader.Failure) in
                    if !reader.isAtEnd { transaction.recovering = try reader.bool(field) }
                }),
        ])
}

extension HeldSignIn: RecordTabled {
    public static let recordFields = RecordFields<HeldSignIn>(
        blank: HeldSignIn(userID: "", amr: [], authTime: .distantPast, reason: .progressive),
        [
            .field("userID", \.userID),
            .field("amr", \.amr),
            .field("authTime", \.authTime),
            .field("reason", \.reason),
        ])
}

extension HeldSignIn.Reason: RecordVocabulary {}

/// The authorization endpoint (RFC 6749 §4.1, OIDC Core §3.1.2) and RP-initiated logout.
///
/// Errors that must not be sent to a redirect URI (an unknown client, a redirect URI that is not
/// exactly one of the client's callbacks) are thrown, and the page shows them; every other error
/// goes back to the client (RFC 6749 §4.1.2.1), with `iss` (RFC 9207).
public final class AuthorizationService: Sendable {
    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource
    let tokens: TokenService
    public let sessions: SSOSessionService

    public init(
        store: any SesameStore, clock: any ServiceClock, random: any RandomSource, tokens: TokenService,
        sessions: SSOSessionService
    ) {
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.random = random
        self.tokens = tokens
        self.sessions = sessions
    }

    /// The text of the error a page shows for a pending request that is gone.
    public static let expiredText =
        "This sign-in is no longer pending: it finished, expired, or began in another browser. Go back to the application and start again."
    static let expired = ServiceError.invalidRequest(expiredText)
    /// The error of a pending request that is gone (for a page that shows it).
    public static let expiredError: ServiceError = expired

    // MARK: /authorize

    /// Checks the request and answers it from `session` when it can. `device` is the browser's
    /// device cookie (the HTTP layer sets one before calling).
    public func authorize(
        tenant: TenantRecord, parameters: [(name: String, value: String)], session: SSOSession?, device: String
    ) throws(ServiceError) -> AuthorizeDecision {
        let (client, redirectURI, mode, state) = try checkClientAndRedirect(tenant: tenant, parameters: parameters)
        let request: AuthorizationRequest
        do {
            request = try checkedRequest(
                tenant: tenant, client: client, redirectURI: redirectURI, mode: mode, parameters: parameters)
        } catch let error as AuthorizationError {
            return .respond(
                Self.errorResponse(error, redirectURI: redirectURI, mode: mode, state: state, tenant: tenant))
        } catch {
            return .respond(
                Self.errorResponse(
                    AuthorizationError(code: .serverError, description: "the request could not be checked"),
                    redirectURI: redirectURI, mode: mode, state: state, tenant: tenant))
        }
        let now = clock.now()
        if let session, !request.startsWithSignup,
            !request.needsFreshSignIn(authTime: session.record.authTime, now: now),
            sessionFits(session, request: request, tenant: tenant, client: client)
        {
            let proof = SignInProof(user: session.user, amr: session.record.amr, authTime: session.record.authTime)
            return .respond(
                try codeResponse(
                    tenant: tenant, client: client, request: request, proof: proof, session: session.record))
        }
        if request.prompts.contains(.none) {
            let error = AuthorizationError(code: .loginRequired, description: "the user is not signed in")
            return .respond(
                Self.errorResponse(error, redirectURI: redirectURI, mode: mode, state: state, tenant: tenant))
        }
        return .signIn(handle: try storePending(request, tenant: tenant, device: device), request: request)
    }

    /// Keeps `request` as a pending sign-in of the browser whose device cookie is `device`; its handle.
    func storePending(_ request: AuthorizationRequest, tenant: TenantRecord, device: String) throws(ServiceError)
        -> String
    {
        let now = clock.now()
        let handle = Base64URL.encode(try random.serviceBytes(32))
        let deviceHash = AuthorizationTransaction.deviceHash(device)
        let record = AuthSessionRecord(
            handleHash: AuthorizationTransaction.hash(handle), tenantID: tenant.id,
            requester: "authorize:" + Hex.lowercase(Array(deviceHash.prefix(8))),
            expiresAt: now + AuthorizationTransaction.lifetime,
            payload: AuthorizationTransaction(request: request, deviceHash: deviceHash).payload)
        let stored = try access.write(.relaxed) { transaction in
            try transaction.authSessions.insert(
                record, maxPerRequester: AuthorizationTransaction.maxPerBrowser, now: now)
        }
        guard stored == .inserted else {
            throw .tooManyRequests(
                "Too many sign-ins are pending in this browser; finish one first.", retryAfterSeconds: 60)
        }
        return handle
    }

    /// Whether the session's user may sign in to `client` for `request` (the connection it names,
    /// or any connection enabled for the client).
    func sessionFits(_ session: SSOSession, request: AuthorizationRequest, tenant: TenantRecord, client: ClientRecord)
        -> Bool
    {
        guard
            let connection = try? access.read({
                try $0.connections.get(tenantID: tenant.id, id: session.user.connectionID)
            })
        else { return false }
        if let name = request.connection, name != connection.name { return false }
        return connection.enabledClients.isEmpty || connection.enabledClients.contains(client.id)
    }

    /// The first values of the parameters, refusing any that repeats (RFC 6749 §3.1).
    static func single(_ parameters: [(name: String, value: String)]) -> (values: [String: String], repeated: String?) {
        var values: [String: String] = [:]
        var repeated: String?
        for (name, value) in parameters {
            if values[name] != nil { repeated = repeated ?? name } else { values[name] = value }
        }
        return (values, repeated)
    }

    /// The client and redirect URI: what must be right before any error may go to the redirect URI.
    func checkClientAndRedirect(
        tenant: TenantRecord, parameters: [(name: String, value: String)]
    ) throws(ServiceError) -> (ClientRecord, String, ResponseMode, String?) {
        let (values, _) = Self.single(parameters)
        for name in ["client_id", "redirect_uri"] where parameters.filter({ $0.name == name }).count > 1 {
            throw .invalidRequest("\(name) is given more than once")
        }
        guard let clientID = values["client_id"], !clientID.isEmpty else {
            throw .invalidRequest("client_id is required")
        }
        guard clientID.utf8.count <= 128,
            let client = try access.read({ try $0.clients.get(tenantID: tenant.id, id: clientID) }),
            client.appType.isInteractive
        else { throw .invalidRequest("client_id is not a client of this tenant that users sign in to") }
        guard let redirectURI = values["redirect_uri"], !redirectURI.isEmpty else {
            throw .invalidRequest("redirect_uri is required")
        }
        // An exact string match against the registered callbacks (RFC 9700 §4.1.3): no pattern,
        // no prefix, no normalisation.
        guard redirectURI.utf8.count <= 2_048, client.callbacks.contains(redirectURI) else {
            throw .invalidRequest("redirect_uri is not one of this client's callback URLs")
        }
        // A callback stored before such schemes were refused is still never followed.
        guard RedirectScheme.refusedScheme(redirectURI) == nil else {
            throw .invalidRequest("redirect_uri uses a scheme that is never a redirect target")
        }
        let mode = values["response_mode"].flatMap(ResponseMode.init(rawValue:)) ?? .query
        let state = values["state"].flatMap { $0.utf8.count <= 2_048 ? $0 : nil }
        return (client, redirectURI, mode, state)
    }

    /// Everything else about the request; an `AuthorizationError` goes back to the client.
    func checkedRequest(
        tenant: TenantRecord, client: ClientRecord, redirectURI: String, mode: ResponseMode,
        parameters: [(name: String, value: String)]
    ) throws -> AuthorizationRequest {
        typealias E = AuthorizationError
        let (values, repeated) = Self.single(parameters)
        if let repeated {
            throw E(code: .invalidRequest, description: "\(repeated.prefix(64)) is given more than once")
        }
        for (name, value) in values {
            if let limit = AuthorizationRequest.limits[name], value.utf8.count > limit {
                throw E(code: .invalidRequest, description: "\(name) is longer than \(limit) bytes")
            }
        }
        if values["request"] != nil {
            throw E(code: .requestNotSupported, description: "request objects are not supported")
        }
        if values["request_uri"] != nil {
            throw E(code: .requestURINotSupported, description: "request_uri is not supported")
        }
        if let given = values["response_mode"], ResponseMode(rawValue: given) == nil {
            throw E(code: .invalidRequest, description: "response_mode must be query or form_post")
        }
        guard let responseType = values["response_type"], !responseType.isEmpty else {
            throw E(code: .invalidRequest, description: "response_type is required")
        }
        guard responseType == "code" else {
            throw E(code: .unsupportedResponseType, description: "response_type must be code")
        }
        guard client.grantTypes.contains(.authorizationCode) else {
            throw E(
                code: .unauthorizedClient, description: "the authorization_code grant is not enabled for this client")
        }
        // A third-party client gets what the user agreed to give it, and Sesame has no consent page
        // yet: no code, and never a silent sign-in from the user's session (docs/oidc.md).
        guard client.isFirstParty else {
            throw E(
                code: .consentRequired,
                description: "this application is not first-party, and its users' consent cannot be asked for yet")
        }
        // PKCE (RFC 7636): S256 only; required for a public client (RFC 9700 §2.1.1).
        var challenge: String?
        if let given = values["code_challenge"] {
            let method = values["code_challenge_method"] ?? "plain"
            guard method == "S256" else {
                throw E(code: .invalidRequest, description: "code_challenge_method must be S256")
            }
            let bytes = Array(given.utf8)
            guard bytes.count == 43, bytes.allSatisfy(AuthorizationCodes.isUnreserved) else {
                throw E(code: .invalidRequest, description: "code_challenge must be 43 base64url characters (S256)")
            }
            challenge = given
        } else if values["code_challenge_method"] != nil {
            throw E(code: .invalidRequest, description: "code_challenge_method needs a code_challenge")
        } else if client.secretHash == nil || client.tokenEndpointAuthMethod == .none {
            throw E(
                code: .invalidRequest, description: "code_challenge is required (PKCE with S256) for a public client")
        }
        var prompts = Set<AuthorizationPrompt>()
        if let given = values["prompt"] {
            for word in given.split(separator: " ") {
                guard let prompt = AuthorizationPrompt(rawValue: String(word)) else {
                    throw E(code: .invalidRequest, description: "prompt \(word.prefix(32)) is not supported")
                }
                prompts.insert(prompt)
            }
            if prompts.contains(.none), prompts.count > 1 {
                throw E(code: .invalidRequest, description: "prompt=none cannot be combined with other values")
            }
        }
        var maxAge: Int?
        if let given = values["max_age"] {
            guard let value = Int(given), value >= 0, given.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                throw E(code: .invalidRequest, description: "max_age must be a whole number of seconds")
            }
            maxAge = value
        }
        let screenHint = values["screen_hint"]
        if let screenHint, screenHint != "signup", screenHint != "login" {
            throw E(code: .invalidRequest, description: "screen_hint must be signup or login")
        }
        let scope = values["scope"].flatMap { $0.isEmpty ? nil : $0 } ?? Scopes.defaultLogin
        let audience = values["audience"].flatMap { $0.isEmpty ? nil : $0 }
        do {
            _ = try tokens.loginScopes(scope, audience: audience, tenant: tenant, client: client)
        } catch {
            switch error {
            case .invalidScope(let text): throw E(code: .invalidScope, description: text)
            default: throw E(code: .invalidRequest, description: error.message)
            }
        }
        let connection = values["connection"].flatMap { $0.isEmpty ? nil : $0 }
        do {
            _ = try access.read { transaction in
                try ConnectionLookup.connection(
                    named: connection, field: "connection", tenant: tenant, client: client, in: transaction)
            }
        } catch {
            throw E(code: .invalidRequest, description: error.message)
        }
        let locales = values["ui_locales"].map { $0.split(separator: " ").map(String.init) } ?? []
        return AuthorizationRequest(
            clientID: client.id, redirectURI: redirectURI, responseMode: mode, scope: scope,
            state: values["state"], nonce: values["nonce"].flatMap { $0.isEmpty ? nil : $0 },
            codeChallenge: challenge, prompts: prompts, maxAge: maxAge,
            loginHint: values["login_hint"].flatMap { $0.isEmpty ? nil : $0 },
            startsWithSignup: screenHint == "signup" || prompts.contains(.create),
            locale: PageLocale.first(in: locales), audience: audience, connection: connection)
    }

    /// The error answer at the redirect URI.
    static func errorResponse(
        _ error: AuthorizationError, redirectURI: String, mode: ResponseMode, state: String?, tenant: TenantRecord
    ) -> AuthorizationResponse {
        var parameters = [
            AuthorizationResponse.Parameter(name: "error", value: error.code.rawValue),
            AuthorizationResponse.Parameter(name: "error_description", value: error.description),
        ]
        if let state { parameters.append(.init(name: "state", value: state)) }
        parameters.append(.init(name: "iss", value: TokenService.issuer(tenant)))
        return AuthorizationResponse(redirectURI: redirectURI, mode: mode, parameters: parameters)
    }

    /// A new code for `proof`, and the answer that carries it.
    func codeResponse(
        tenant: TenantRecord, client: ClientRecord, request: AuthorizationRequest, proof: SignInProof,
        session: SSOSessionRecord
    ) throws(ServiceError) -> AuthorizationResponse {
        let familyID: String
        do {
            familyID = try RefreshTokens.identifier("rtf_", random)
        } catch {
            throw .unavailable("the random source failed")
        }
        let code = AuthorizationCode(
            clientID: client.id, redirectURI: request.redirectURI, userID: proof.user.id, scope: request.scope,
            audience: request.audience, nonce: request.nonce, codeChallenge: request.codeChallenge, amr: proof.amr,
            authTime: proof.authTime, sessionID: session.id, familyID: familyID)
        let value = try tokens.codes.issue(code, tenant: tenant)
        try sessions.noteClient(client.id, session: session)
        var parameters = [AuthorizationResponse.Parameter(name: "code", value: value)]
        if let state = request.state { parameters.append(.init(name: "state", value: state)) }
        parameters.append(.init(name: "iss", value: TokenService.issuer(tenant)))
        return AuthorizationResponse(
            redirectURI: request.redirectURI, mode: request.responseMode, parameters: parameters)
    }

    // MARK: The pending request

    /// The pending request `handle` names, for the browser whose device cookie is `device`.
    public func pending(tenant: TenantRecord, handle: String?, device: String?) throws(ServiceError)
        -> PendingAuthorization
    {
        guard let handle, !handle.isEmpty, handle.utf8.count <= 128, let device, !device.isEmpty else {
            throw Self.expired
        }
        let now = clock.now()
        return try access.read { transaction in
            guard let record = try transaction.authSessions.get(handleHash: AuthorizationTransaction.hash(handle)),
                record.tenantID == tenant.id, record.expiresAt > now,
                let stored = AuthorizationTransaction(payload: record.payload),
                constantTimeEquals(stored.deviceHash, AuthorizationTransaction.deviceHash(device)),
                let client = try AccountClient.client(stored.request.clientID, tenant: tenant, in: transaction)
            else { throw Self.expired }
            let connection = try ConnectionLookup.connection(
                named: stored.request.connection, field: "connection", tenant: tenant, client: client, in: transaction)
            return PendingAuthorization(
                handle: handle, request: stored.request, client: client, connection: connection,
                identifier: stored.identifier, secondFactorDue: stored.secondFactorDue, held: stored.held,
                recovering: stored.recovering)
        }
    }

    /// The pending request in another language (a page's language link): the steps after it
    /// speak it too.
    public func changeLanguage(tenant: TenantRecord, pending: PendingAuthorization, to locale: PageLocale)
        throws(ServiceError) -> PendingAuthorization
    {
        guard pending.request.locale != locale else { return pending }
        var changed = pending
        changed.request.locale = locale
        try save(changed, tenant: tenant)
        return changed
    }

    /// Stores the progress of a pending request (the identifier, the mfa token, the language).
    func save(_ pending: PendingAuthorization, tenant: TenantRecord) throws(ServiceError) {
        let hash = AuthorizationTransaction.hash(pending.handle)
        try access.write(.relaxed) { transaction in
            guard let record = try transaction.authSessions.consume(handleHash: hash),
                var stored = AuthorizationTransaction(payload: record.payload)
            else { throw Self.expired }
            stored.identifier = pending.identifier
            stored.secondFactorDue = pending.secondFactorDue
            stored.held = pending.held
            stored.recovering = pending.recovering
            stored.request.locale = pending.request.locale
            var updated = record
            updated.payload = stored.payload
            _ = try transaction.authSessions.insert(updated, maxPerRequester: .max, now: clock.now())
        }
    }

    /// Ends the pending request with a sign-in: the session (new, or `current` under a new
    /// cookie), and the code for the client. The request is consumed: a second completion fails.
    public func complete(
        tenant: TenantRecord, pending: PendingAuthorization, proof: SignInProof, browser: BrowserContext,
        current: SSOSession?
    ) throws(ServiceError) -> (cookie: String, session: SSOSessionRecord, response: AuthorizationResponse) {
        let consumed = try access.write(.relaxed) {
            try $0.authSessions.consume(handleHash: AuthorizationTransaction.hash(pending.handle))
        }
        guard consumed != nil else { throw Self.expired }
        let (cookie, session) = try sessions.begin(tenant: tenant, proof: proof, browser: browser, replacing: current)
        // The sign-in is complete: its success, with the first factor it began with.
        let method: AuthEventMethod? =
            proof.amr.contains("pop") ? .passkey : proof.amr.contains("pwd") ? .password : nil
        tokens.events.audit?.record(
            .successLogin, tenantID: tenant.id, clientID: pending.client.id, user: proof.user,
            details: AuditDetails(method: method))
        if pending.client.id == AccountClient.id {
            // The account page's sign-in: back to the page, signed in; no code.
            return (
                cookie, session,
                AuthorizationResponse(redirectURI: pending.request.redirectURI, mode: .query, parameters: [])
            )
        }
        let response = try codeResponse(
            tenant: tenant, client: pending.client, request: pending.request, proof: proof, session: session)
        return (cookie, session, response)
    }

    /// A sign-in for the account pages, which return to `path` (a path of this server) after it.
    /// `fresh`: the user must sign in again even with a session (a step-up before a sensitive change).
    public func beginAccountSignIn(tenant: TenantRecord, path: String, device: String, fresh: Bool)
        throws(ServiceError) -> String
    {
        guard path.hasPrefix("/account") || path.hasPrefix("/admin"), !path.contains("//"), !path.contains("?"),
            path.utf8.count <= 256
        else { throw .invalidRequest("the account sign-in returns to an account or admin page") }
        let request = AuthorizationRequest(
            clientID: AccountClient.id, redirectURI: tenant.publicURL + path, responseMode: .query, scope: "openid",
            state: nil, nonce: nil, codeChallenge: nil, prompts: fresh ? [.login] : [], maxAge: nil, loginHint: nil,
            startsWithSignup: false, locale: nil, audience: nil, connection: nil)
        return try storePending(request, tenant: tenant, device: device)
    }

    /// The user turned the sign-in down: `access_denied` at the redirect URI.
    public func cancel(tenant: TenantRecord, pending: PendingAuthorization) throws(ServiceError)
        -> AuthorizationResponse
    {
        _ = try access.write(.relaxed) {
            try $0.authSessions.consume(handleHash: AuthorizationTransaction.hash(pending.handle))
        }
        return Self.errorResponse(
            AuthorizationError(code: .accessDenied, description: "the user cancelled the sign-in"),
            redirectURI: pending.request.redirectURI, mode: pending.request.responseMode,
            state: pending.request.state, tenant: tenant)
    }
}
