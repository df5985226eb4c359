import Foundation

/// The type of an audit-log entry: Auth0's log event type code where Auth0 has one, else a code of
/// Sesame's own under the `sesame_` prefix (docs/audit-log.md lists them all).
public enum AuditEventType: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    // Logins (a first factor at the token endpoint or on the hosted pages).
    /// Successful login (passkey, device key, hosted pages).
    case successLogin = "s"
    /// Failed login, for a reason other than the two below.
    case failedLogin = "f"
    /// Failed login: the password was wrong.
    case failedPassword = "fp"
    /// Failed login: no user has that email or username.
    case failedUsername = "fu"
    /// The password was right and a second factor is required next.
    case mfaRequired = "mfar"
    /// Password grant exchanged for tokens / refused.
    case successPasswordExchange = "sepft"
    case failedPasswordExchange = "fepft"
    /// Refresh-token grant.
    case successRefreshExchange = "sertft"
    case failedRefreshExchange = "fertft"
    /// A rotated refresh token was presented again (reuse detection revoked its family).
    case failedRotatingRefresh = "ferrt"
    /// Client-credentials grant.
    case successClientCredentials = "seccft"
    case failedClientCredentials = "feccft"
    /// Authorization-code grant.
    case successCodeExchange = "seacft"
    case failedCodeExchange = "feacft"
    /// The MFA grants: OTP, out-of-band (SMS), recovery code.
    case successOTPExchange = "seotpft"
    case failedOTPExchange = "feotpft"
    case successOOBExchange = "seoobft"
    case failedOOBExchange = "feoobft"
    case successRecoveryCodeExchange = "sercft"
    case failedRecoveryCodeExchange = "fercft"
    /// Native social login (Sign in with Apple's token exchange).
    case successNativeSocial = "sens"
    case failedNativeSocial = "fens"
    /// A refresh token revoked (RFC 7009).
    case successRevocation = "srrt"
    /// Hosted-page logout.
    case successLogout = "slo"
    // Signups and account changes.
    case successSignup = "ss"
    case failedSignup = "fs"
    case successChangePassword = "scp"
    case failedChangePassword = "fcp"
    /// A password-reset code or link was sent.
    case successChangePasswordRequest = "scpr"
    case successUserDeletion = "sdu"
    // MFA.
    /// A second factor was enrolled.
    case mfaEnrollmentComplete = "gd_enrollment_complete"
    /// A second factor was checked at a login.
    case mfaAuthSucceeded = "gd_auth_succeed"
    case mfaAuthFailed = "gd_auth_failed"
    /// An SMS code was sent.
    case mfaSMSSent = "gd_send_sms"
    /// A second factor was removed (the MFA API or the account page; a recovery code that went
    /// with the last factor has its own entry).
    case mfaUnenrolled = "gd_unenroll"
    // Attack protection.
    /// Too many failed logins for one account: the account is blocked for a while.
    case blockedAccount = "limit_wc"
    /// Too many failed logins from one address.
    case blockedAddress = "limit_mu"
    /// A login with a password found in a breach.
    case breachedPassword = "pwd_leak"
    case breachedPasswordAtSignup = "signup_pwd_leak"
    case breachedPasswordAtReset = "reset_pwd_leak"
    // Management API.
    case successAPIOperation = "sapi"
    case failedAPIOperation = "fapi"
    // Sesame's own (no Auth0 code).
    /// A passkey was added to an account.
    case passkeyEnrolled = "sesame_passkey_enrolled"
    /// A passkey was removed from an account.
    case passkeyDeleted = "sesame_passkey_deleted"
    /// A password was removed from an account (Auth0 has no code for it).
    case passwordDeleted = "sesame_password_deleted"
    /// A legacy device key was registered.
    case deviceKeyEnrolled = "sesame_device_key_enrolled"
    /// A legacy device key was revoked or deleted.
    case deviceKeyDeleted = "sesame_device_key_deleted"
    /// An account security upgrade was committed (docs/account-upgrades.md).
    case accountUpgraded = "sesame_account_upgraded"
    /// An account was recovered with an emailed code.
    case accountRecovered = "sesame_account_recovered"
    /// A signing key was rotated (a new key published, the old one kept for verification).
    case signingKeyRotated = "sesame_signing_key_rotated"
    /// An SMS code was not sent: a sending limit was reached (`details.target` names which).
    case smsLimited = "sesame_sms_limited"

    /// Whether the event is a failure of what it names (for `details`-free filtering and docs).
    public var isFailure: Bool {
        switch self {
        case .failedLogin, .failedPassword, .failedUsername, .failedPasswordExchange, .failedRefreshExchange,
            .failedRotatingRefresh, .failedClientCredentials, .failedCodeExchange, .failedOTPExchange,
            .failedOOBExchange, .failedRecoveryCodeExchange, .failedNativeSocial, .failedSignup,
            .failedChangePassword, .mfaAuthFailed, .blockedAccount, .blockedAddress, .failedAPIOperation, .smsLimited:
            return true
        default: return false
        }
    }

    /// The fixed English description an entry carries (never built from request input).
    public var summary: String {
        switch self {
        case .successLogin: return "Successful login"
        case .failedLogin: return "Failed login"
        case .failedPassword: return "Wrong email or password."
        case .failedUsername: return "Wrong email or password."
        case .mfaRequired: return "Multi-factor authentication required"
        case .successPasswordExchange: return "Successful exchange of password for access token"
        case .failedPasswordExchange: return "Failed exchange of password for access token"
        case .successRefreshExchange: return "Successful exchange of refresh token for access token"
        case .failedRefreshExchange: return "Failed exchange of refresh token for access token"
        case .failedRotatingRefresh: return "A rotated refresh token was reused; its family was revoked"
        case .successClientCredentials: return "Successful exchange of client credentials for access token"
        case .failedClientCredentials: return "Failed exchange of client credentials for access token"
        case .successCodeExchange: return "Successful exchange of authorization code for access token"
        case .failedCodeExchange: return "Failed exchange of authorization code for access token"
        case .successOTPExchange: return "Successful exchange of OTP for access token"
        case .failedOTPExchange: return "Failed exchange of OTP for access token"
        case .successOOBExchange: return "Successful exchange of out-of-band code for access token"
        case .failedOOBExchange: return "Failed exchange of out-of-band code for access token"
        case .successRecoveryCodeExchange: return "Successful exchange of MFA recovery code for access token"
        case .failedRecoveryCodeExchange: return "Failed exchange of MFA recovery code for access token"
        case .successNativeSocial: return "Successful native social login"
        case .failedNativeSocial: return "Failed native social login"
        case .successRevocation: return "Refresh token revoked"
        case .successLogout: return "Successful logout"
        case .successSignup: return "Successful signup"
        case .failedSignup: return "Failed signup"
        case .successChangePassword: return "Password changed"
        case .failedChangePassword: return "Failed password change"
        case .successChangePasswordRequest: return "Password reset requested"
        case .successUserDeletion: return "User deleted"
        case .mfaEnrollmentComplete: return "Second factor enrolled"
        case .mfaAuthSucceeded: return "Second factor accepted"
        case .mfaAuthFailed: return "Second factor refused"
        case .mfaSMSSent: return "SMS code sent"
        case .mfaUnenrolled: return "Second factor removed"
        case .blockedAccount: return "Too many failed logins: account blocked"
        case .blockedAddress: return "Too many failed logins: address blocked"
        case .breachedPassword: return "Login with a breached password"
        case .breachedPasswordAtSignup: return "Signup with a breached password"
        case .breachedPasswordAtReset: return "Password reset to a breached password"
        case .successAPIOperation: return "Successful Management API operation"
        case .failedAPIOperation: return "Failed Management API operation"
        case .passkeyEnrolled: return "Passkey enrolled"
        case .passkeyDeleted: return "Passkey deleted"
        case .passwordDeleted: return "Password removed"
        case .deviceKeyEnrolled: return "Device key registered"
        case .deviceKeyDeleted: return "Device key removed"
        case .accountUpgraded: return "Account upgraded"
        case .accountRecovered: return "Account recovered"
        case .signingKeyRotated: return "Signing key rotated"
        case .smsLimited: return "SMS code not sent: a sending limit was reached"
        }
    }
}

/// Why an audited operation failed, as a closed list (never the error's free text, which may
/// echo request input).
public enum AuditReason: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case invalidRequest = "invalid_request"
    case invalidClient = "invalid_client"
    case unauthorizedClient = "unauthorized_client"
    case invalidGrant = "invalid_grant"
    case invalidScope = "invalid_scope"
    case invalidDPoPProof = "invalid_dpop_proof"
    case wrongPassword = "wrong_password"
    case unknownUser = "unknown_user"
    case userBlocked = "user_blocked"
    case deletedUser = "deleted_user"
    case passwordLeaked = "password_leaked"
    case weakPassword = "weak_password"
    case userExists = "user_exists"
    case tooManyAttempts = "too_many_attempts"
    case mfaRefused = "mfa_refused"
    case unknownCredential = "unknown_credential"
    case forbidden
    case notFound = "not_found"
    case conflict
    case unavailable
    case other
}

/// The HTTP method of an audited Management API call.
public enum AuditRequestMethod: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
}

/// An entry's `details`: a few typed, secret-free facts. No body, query string, header, token,
/// code or password is ever one of them.
public struct AuditDetails: Sendable, Hashable, Codable {
    /// How the user or client authenticated (login, enrollment, upgrade events).
    public var method: AuthEventMethod?
    /// Why it failed.
    public var reason: AuditReason?
    /// A Management API call: its method, its path (ids only, never a query) and its status.
    public var requestMethod: AuditRequestMethod?
    public var requestPath: String?
    public var status: Int?
    /// The id of what the event changed (a passkey, a device key, a signing key's kid).
    public var target: String?
    /// The scopes asked for or granted (token events).
    public var scope: String?

    public init(
        method: AuthEventMethod? = nil, reason: AuditReason? = nil, requestMethod: AuditRequestMethod? = nil,
        requestPath: String? = nil, status: Int? = nil, target: String? = nil, scope: String? = nil
    ) {
        self.method = method
        self.reason = reason
        self.requestMethod = requestMethod
        self.requestPath = requestPath
        self.status = status
        self.target = target
        self.scope = scope
    }

    public var isEmpty: Bool { self == AuditDetails() }
}

/// One audit-log entry (append-only: the store has no update for it).
public struct AuditEventRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = AuditEventRecord.currentVersion
    public var tenantID: String
    /// `log_`, the time in milliseconds as 12 hex digits, then 64 random bits: ids sort by time.
    public var id: String
    public var at: Date
    public var type: AuditEventType
    /// The client the request came through (a Management call: the acting client).
    public var clientID: String?
    public var userID: String?
    /// The identifier the user gave or has (email, username or phone), never a password.
    public var userName: String?
    public var connectionID: String?
    /// The client's address, after trusted-proxy resolution.
    public var ip: String?
    /// The request's `User-Agent`, cut to 256 characters.
    public var userAgent: String?
    public var details: AuditDetails

    public init(
        tenantID: String, id: String, at: Date, type: AuditEventType, clientID: String? = nil, userID: String? = nil,
        userName: String? = nil, connectionID: String? = nil, ip: String? = nil, userAgent: String? = nil,
        details: AuditDetails = AuditDetails()
    ) {
        self.tenantID = tenantID
        self.id = id
        self.at = at
        self.type = type
        self.clientID = clientID
        self.userID = userID
        self.userName = userName
        self.connectionID = connectionID
        self.ip = ip
        self.userAgent = userAgent
        self.details = details
    }
}

extension AuditEventRecord: BinaryCodedRecord {
    public static let recordFields = RecordFields<AuditEventRecord>(
        blank: AuditEventRecord(tenantID: "", id: "", at: .distantPast, type: .successLogin),
        [
            .field("tenantID", \.tenantID),
            .field("id", \.id),
            .field("at", \.at),
            .field("type", \.type),
            .field("clientID", \.clientID),
            .field("userID", \.userID),
            .field("userName", \.userName),
            .field("connectionID", \.connectionID),
            .field("ip", \.ip),
            .field("userAgent", \.userAgent),
            .field("details.method", \.details.method),
            .field("details.reason", \.details.reason),
            .field("details.requestMethod", \.details.requestMethod),
            .field("details.requestPath", \.details.requestPath),
            .field("details.status", \.details.statusText),
            .field("details.target", \.details.target),
            .field("details.scope", \.details.scope),
        ])
}

extension AuditDetails {
    /// The status as stored: its decimal digits.
    fileprivate var statusText: String? {
        get { status.map(String.init) }
        set { status = newValue.flatMap { Int($0) } }
    }
}

/// Which entries a list returns. Every condition given must hold.
public struct AuditQuery: Sendable, Hashable {
    /// Any of these types (empty: every type).
    public var types: [AuditEventType]
    public var userID: String?
    public var clientID: String?
    /// At or after.
    public var from: Date?
    /// Before.
    public var to: Date?

    public init(
        types: [AuditEventType] = [], userID: String? = nil, clientID: String? = nil, from: Date? = nil,
        to: Date? = nil
    ) {
        self.types = types
        self.userID = userID
        self.clientID = clientID
        self.from = from
        self.to = to
    }

    /// Whether `event` meets every condition (the memory store's filter; the SQL stores say it in SQL).
    public func matches(_ event: AuditEventRecord) -> Bool {
        (types.isEmpty || types.contains(event.type)) && (userID == nil || event.userID == userID)
            && (clientID == nil || event.clientID == clientID) && (from.map { event.at >= $0 } ?? true)
            && (to.map { event.at < $0 } ?? true)
    }
}

/// The audit log (append-only: entries are never changed; only retention removes them).
public protocol AuditEventRepository {
    /// Stores the entries; `conflict(.auditEventID)` when an id is taken.
    func append(_ events: [AuditEventRecord]) throws
    func get(tenantID: String, id: String) throws -> AuditEventRecord?
    /// The tenant's entries that match, newest first (by id, which grows with time).
    func list(tenantID: String, query: AuditQuery, page: Page) throws -> [AuditEventRecord]
    /// How many of the tenant's entries match.
    func count(tenantID: String, query: AuditQuery) throws -> Int
    /// Up to `limit` (at most 100) matching entries whose id is greater than `after` (nil: from
    /// the oldest), oldest first: Auth0's checkpoint paging.
    func list(tenantID: String, query: AuditQuery, after: String?, limit: Int) throws -> [AuditEventRecord]
    /// Deletes up to `limit` of the tenant's entries made before `before`; returns how many.
    @discardableResult func deleteOlder(tenantID: String, than before: Date, limit: Int) throws -> Int
}
