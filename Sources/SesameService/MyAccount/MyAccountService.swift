import Foundation
import SesameStore
import SesameWire

/// The My Account API (`/me/v1`): a signed-in user lists, renames, deletes and enrolls passkeys.
public final class MyAccountService: Sendable {
    /// Passkey names are 1 to this many characters.
    public static let maxNameLength = 100

    let access: StoreAccess
    let clock: any ServiceClock
    let passkeys: PasskeyService
    let tokens: TokenService
    let notices: CredentialNotices?

    public init(
        store: any SesameStore, clock: any ServiceClock, passkeys: PasskeyService, tokens: TokenService,
        notices: CredentialNotices? = nil
    ) {
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.passkeys = passkeys
        self.tokens = tokens
        self.notices = notices
    }

    /// Checks that `principal` is a user with a token for the My Account audience (`<issuer>me/`)
    /// carrying `scope`: 401 `invalid_token` otherwise, 403 `insufficient_scope` without the scope.
    public func authorize(
        _ principal: Principal, tenant: TenantRecord, scope: MyAccountScope
    ) throws(ServiceError) -> AccountCaller {
        try principal.require(tenant: tenant, audience: TokenService.myAccountAudience(tenant))
        guard principal.isUser, let subject = principal.subject, let clientID = principal.clientID else {
            throw .invalidToken("the access token is not a user's token")
        }
        let caller = AccountCaller(
            tenant: tenant, userID: subject, clientID: clientID, scopes: principal.scopes, authTime: principal.authTime,
            deviceKeyID: principal.deviceKeyID, amr: principal.amr)
        try caller.require(scope)
        return caller
    }

    /// The caller of the account page: the user of a live SSO session, with every scope, through
    /// the account page's own client.
    public func caller(session: SSOSession, tenant: TenantRecord) -> AccountCaller {
        AccountCaller(
            tenant: tenant, userID: session.user.id, clientID: AccountClient.id,
            scopes: Set(MyAccountScope.allCases.map(\.rawValue)), authTime: session.record.authTime,
            amr: session.record.amr)
    }

    /// What the account page shows: the user, their connection, and their passkeys oldest first.
    public func overview(_ caller: AccountCaller) throws(ServiceError)
        -> (user: UserRecord, connection: ConnectionRecord?, passkeys: [PasskeyRecord])
    {
        try caller.require(.read)
        return try access.read { transaction in
            let user = try Self.user(caller, transaction)
            let passkeys = try transaction.passkeys.list(tenantID: caller.tenant.id, userID: user.id)
                .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            return (user, try transaction.connections.get(tenantID: caller.tenant.id, id: user.connectionID), passkeys)
        }
    }

    /// How the account page shows each passkey's authenticator, by formatted AAGUID: the FIDO
    /// metadata's description and icon, else the AAGUID table's name (docs/mds.md).
    public func authenticatorDisplays(_ passkeys: [PasskeyRecord]) throws(ServiceError) -> [String:
        AuthenticatorDisplay]
    {
        try access.read { try MetadataService.display(aaguids: passkeys.map(\.aaguid), in: $0) }
    }

    /// `GET /authentication-methods[?type=…]`: the password first, then passkeys oldest first; a
    /// filter for a type the user has none of lists nothing.
    public func authenticationMethods(
        _ caller: AccountCaller, type: String? = nil
    ) throws(ServiceError) -> AuthenticationMethodList {
        try caller.require(.read)
        if let type { guard type.utf8.count <= 64 else { throw .invalidRequest("type is too long") } }
        let (user, list) = try access.read { transaction in
            let user = try Self.user(caller, transaction)
            return (user, try transaction.passkeys.list(tenantID: caller.tenant.id, userID: user.id))
        }
        var methods: [AuthenticationMethod] = []
        // A password an upgrade replaced signs no one in: it is not a method.
        if type == nil || type == "password", let password = user.usablePassword {
            methods.append(.password(password, user: user, myAccount: true))
        }
        if type == nil || type == "passkey" {
            methods += list.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
                .map { AuthenticationMethod.myAccount($0, user: user, rpID: caller.tenant.rpID) }
        }
        return AuthenticationMethodList(authenticationMethods: methods)
    }

    /// `GET /authentication-methods/{id}`: 404 unless it is one of the caller's.
    public func authenticationMethod(_ caller: AccountCaller, id: String) throws(ServiceError) -> AuthenticationMethod {
        try caller.require(.read)
        return try access.read { transaction in
            let user = try Self.user(caller, transaction)
            if let password = user.usablePassword, password.id == id {
                return .password(password, user: user, myAccount: true)
            }
            let passkey = try Self.passkey(id, of: user, caller, transaction)
            return AuthenticationMethod.myAccount(passkey, user: user, rpID: caller.tenant.rpID)
        }
    }

    /// `POST /authentication-methods` `{"type":"passkey"}`: creation options for a new passkey.
    /// `identityUserID` (Auth0's field for linked accounts) must name the caller's own identity,
    /// with or without its provider prefix: Sesame users have exactly one.
    public func beginEnrollment(
        _ caller: AccountCaller, type: String, connection: String?, identityUserID: String? = nil, requester: String
    ) throws(ServiceError) -> PasskeySignupChallengeResponse {
        try caller.require(.create)
        guard type == "passkey" else { throw .invalidRequest("type must be passkey") }
        if let identityUserID, identityUserID != caller.userID, identityUserID != ManagedUser.bareID(caller.userID) {
            throw .invalidRequest("identity_user_id is not an identity of the signed-in user")
        }
        let now = clock.now()
        _ = try access.read { transaction in try Self.requireCredentialChange(caller, now: now, transaction) }
        return try passkeys.beginEnrollment(
            tenant: caller.tenant, clientID: caller.clientID, userID: caller.userID, connection: connection,
            requester: requester)
    }

    /// `POST /authentication-methods/passkey|new/verify`: the new passkey.
    public func finishEnrollment(
        _ caller: AccountCaller, authSession: String, response: [UInt8]
    ) throws(ServiceError) -> AuthenticationMethod {
        try caller.require(.create)
        let now = clock.now()
        _ = try access.read { transaction in try Self.requireCredentialChange(caller, now: now, transaction) }
        let (passkey, user) = try passkeys.finishEnrollment(
            tenant: caller.tenant, clientID: caller.clientID, userID: caller.userID, authSession: authSession,
            response: response, migratingDeviceKey: caller.deviceKeyID)
        return AuthenticationMethod.myAccount(passkey, user: user, rpID: caller.tenant.rpID)
    }

    /// `PATCH /authentication-methods/{id}` `{"name"}`.
    public func renameAuthenticationMethod(
        _ caller: AccountCaller, id: String, name: String
    ) throws(ServiceError) -> AuthenticationMethod {
        try caller.require(.update)
        let name = try ManagementValidation.text(name, "name", max: Self.maxNameLength)
        return try access.write(.durable) { transaction in
            let user = try Self.user(caller, transaction)
            var passkey = try Self.passkey(id, of: user, caller, transaction)
            passkey.name = name
            try transaction.passkeys.update(passkey)
            return AuthenticationMethod.myAccount(passkey, user: user, rpID: caller.tenant.rpID)
        }
    }

    /// The 409 for removing the password when it is the last way in (the pages say it in words).
    public static let lastPasswordText = "this is the user's last way to sign in; add a passkey first"
    /// The 409 for removing the last passkey when there is no other way in.
    public static let lastPasskeyText = "this is the user's last way to sign in; add another passkey first"

    /// `DELETE /authentication-methods/{id}`: a passkey, or the password; 409 when it is the
    /// user's last way to sign in. The refresh families of logins with that passkey are revoked
    /// with it. Either removal has its audit entry once the write committed
    /// (`sesame_passkey_deleted`, `sesame_password_deleted`).
    public func deleteAuthenticationMethod(_ caller: AccountCaller, id: String) throws(ServiceError) {
        try caller.require(.delete)
        let now = clock.now()
        let (user, type, method, target) = try access.write(.durable) {
            transaction -> (UserRecord, AuditEventType, AuthEventMethod, String) in
            var user = try Self.requireCredentialChange(caller, now: now, transaction)
            let passkeys = try transaction.passkeys.list(tenantID: caller.tenant.id, userID: user.id)
            let linked = try transaction.linkedIdentities.list(tenantID: caller.tenant.id, userID: user.id)
            if let password = user.usablePassword, password.id == id {
                guard !passkeys.isEmpty || !linked.isEmpty else {
                    throw ServiceError.conflict(Self.lastPasswordText)
                }
                user.password = nil
                user.updatedAt = now
                try transaction.users.update(user)
                return (user, .passwordDeleted, .password, password.id)
            }
            let passkey = try Self.passkey(id, of: user, caller, transaction)
            // A linked Apple ID is a way in too.
            guard passkeys.count > 1 || user.usablePassword != nil || !linked.isEmpty else {
                throw ServiceError.conflict(Self.lastPasskeyText)
            }
            try transaction.passkeys.delete(tenantID: caller.tenant.id, id: passkey.id)
            try DeletedPasskeys.remember([passkey], tenant: caller.tenant, now: now, in: transaction)
            try transaction.refreshTokens.revokeAll(tenantID: caller.tenant.id, passkeyID: passkey.id, at: now)
            return (user, .passkeyDeleted, .passkey, passkey.id)
        }
        tokens.events.audit?.record(
            type, tenantID: caller.tenant.id, clientID: caller.clientID, user: user,
            details: AuditDetails(method: method, target: target))
    }

    /// The caller's user, when the caller's sign-in may change the user's credentials
    /// (`CredentialChange`). A device-key re-authentication that migrates its key to a passkey
    /// needs no second factor: the key is the factor the passkey replaces (docs/migration.md).
    @discardableResult
    static func requireCredentialChange(
        _ caller: AccountCaller, now: Date, _ transaction: any StoreTransaction
    ) throws -> UserRecord {
        let user = try Self.user(caller, transaction)
        let connection = try transaction.connections.get(tenantID: caller.tenant.id, id: user.connectionID)
        try CredentialChange.require(
            tenant: caller.tenant, user: user, connection: connection, authTime: caller.authTime, amr: caller.amr,
            now: now, secondFactorWaived: caller.deviceKeyID != nil)
        return user
    }

    static func user(_ caller: AccountCaller, _ transaction: any StoreTransaction) throws -> UserRecord {
        guard let user = try transaction.users.get(tenantID: caller.tenant.id, id: caller.userID) else {
            throw ServiceError.invalidToken("the token's user no longer exists")
        }
        guard !user.blocked else { throw ServiceError.invalidToken("the user is blocked") }
        return user
    }

    static func passkey(
        _ id: String, of user: UserRecord, _ caller: AccountCaller, _ transaction: any StoreTransaction
    ) throws -> PasskeyRecord {
        guard id.utf8.count <= 128, let passkey = try transaction.passkeys.get(tenantID: caller.tenant.id, id: id),
            passkey.userID == user.id
        else {
            throw ServiceError.notFound("you have no authentication method with this id")
        }
        return passkey
    }
}
