import SesameStore

/// The errors of a `WWW-Authenticate: DPoP` challenge (RFC 9449 §7.1, RFC 6750 §3.1).
public enum DPoPChallenge: String, Sendable, Equatable {
    case invalidToken = "invalid_token"
    case invalidDPoPProof = "invalid_dpop_proof"
    case useDPoPNonce = "use_dpop_nonce"
}

/// Why `/dbconnections/signup` or a password change refused, in Auth0's words
/// (`{"name", "code", "description", "statusCode"}` on the wire).
public enum SignupRefusal: Sendable, Equatable {
    /// `user_exists` "The user already exists." (a tenant that reveals taken identifiers).
    case userExists
    /// `invalid_signup` "Invalid sign up": a taken identifier the tenant does not reveal.
    case hidden
    /// `invalid_password`, `PasswordStrengthError`: the connection's rules and how the password fared.
    case weakPassword(rules: String, verdicts: [PasswordRuleVerdict])
    /// `password_leaked`: the password is in the breached corpus.
    case passwordLeaked
    /// `invalid_password`, `PasswordHistoryError`: the new password is the one it replaces.
    case passwordReused

    public var code: String {
        switch self {
        case .userExists: return "user_exists"
        case .hidden: return "invalid_signup"
        case .weakPassword, .passwordReused: return "invalid_password"
        case .passwordLeaked: return "password_leaked"
        }
    }

    public var description: String {
        switch self {
        case .userExists: return "The user already exists."
        case .hidden: return "Invalid sign up"
        case .weakPassword: return "Password is too weak"
        case .passwordLeaked: return "This password has previously appeared in a data breach; choose another one."
        case .passwordReused: return "The new password must differ from the current one."
        }
    }
}

/// Why a second-factor step was refused, with Auth0's code and text, which Auth0.swift compares.
public enum MFARefusal: Sendable, Equatable {
    /// `invalid_grant` "Malformed mfa_token": unknown, foreign, or not an mfa token at all.
    case malformedToken
    /// `expired_token`: the mfa token's five minutes are over.
    case expiredToken
    /// `unsupported_challenge_type`: `challenge_type` names neither otp nor oob.
    case unknownChallengeType
    /// `association_required`: the user has no second factor yet.
    case noAuthenticator
    /// `unsupported_challenge_type`: the user has none of the types asked for.
    case noAuthenticatorOfType
    /// `unsupported_challenge_type`: the tenant has the otp factor turned off.
    case otpDisabled
    /// `association_required`: the user has no otp authenticator.
    case noOTPAuthenticator
    /// `invalid_grant` "Invalid <field>.": the code does not match (or is spent).
    case wrongCode(MFACodeField)
    /// `invalid_grant`: an account-recovery email code that is wrong or expired.
    case wrongRecoveryEmailCode

    public var code: String {
        switch self {
        case .malformedToken, .wrongCode, .wrongRecoveryEmailCode: return "invalid_grant"
        case .expiredToken: return "expired_token"
        case .unknownChallengeType, .noAuthenticatorOfType, .otpDisabled: return "unsupported_challenge_type"
        case .noAuthenticator, .noOTPAuthenticator: return "association_required"
        }
    }

    public var description: String {
        switch self {
        case .malformedToken: return "Malformed mfa_token"
        case .expiredToken: return "mfa_token is expired"
        case .unknownChallengeType: return "challenge_type must hold otp, oob or both"
        case .noAuthenticator: return "The user has no authenticator; enroll one first"
        case .noAuthenticatorOfType: return "the user has no authenticator of the type asked for"
        case .otpDisabled: return "the otp factor is not enabled for this tenant"
        case .noOTPAuthenticator: return "The user has no otp authenticator; enroll one first"
        case .wrongCode(let field): return "Invalid \(field.rawValue)."
        case .wrongRecoveryEmailCode: return "That code is not right, or it has expired."
        }
    }
}

/// The request field a wrong second-factor code came in.
public enum MFACodeField: String, Sendable, Equatable {
    case otp = "otp_code"
    case oob = "oob_code"
    case binding = "binding_code"
    case recovery = "recovery_code"
}

/// Why an account security upgrade is not allowed (docs/account-upgrades.md's `upgrade_not_allowed`, `reason`).
public enum UpgradeRefusal: String, Sendable, Equatable {
    /// The connection does not offer this upgrade (or its target: passkeys off, no Apple connection).
    case typeDisabled = "type_disabled"
    /// The user has no password to upgrade.
    case noPassword = "no_password"
    case userBlocked = "user_blocked"
    /// The password was already replaced by Sign in with Apple or a passkey.
    case alreadyUpgraded = "already_upgraded"

    public var description: String {
        switch self {
        case .typeDisabled: return "this upgrade is not offered for this account"
        case .noPassword: return "the account has no password to upgrade"
        case .userBlocked: return "the user is blocked"
        case .alreadyUpgraded: return "the password was already replaced"
        }
    }
}

/// Why a service operation failed, in the vocabulary of OAuth and the API contract. SesameHTTP maps
/// each case to its status in one place. Messages name the field or check and never echo a secret.
public enum ServiceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 400: malformed input, missing/extra/ill-typed field, identifier already taken.
    case invalidRequest(String)
    /// 401: unknown client, wrong or missing client secret.
    case invalidClient(String)
    /// 403: the client may not use this grant or route.
    case unauthorizedClient(String)
    /// 400: auth session or refresh token unknown/expired/used/foreign; WebAuthn verification failed.
    case invalidGrant(String)
    /// 403 `invalid_grant`: a refresh token whose user was deleted (Auth0's status and code, which
    /// Auth0.swift's `isRefreshTokenDeleted` and Auth0.Android's RENEW_FAILED look for).
    case deletedUserGrant(String)
    /// 400 at the token endpoint: a missing, malformed, replayed or wrong DPoP proof (RFC 9449 §5).
    case invalidDPoPProof(String)
    /// 400 at the token endpoint: a proof without the server's current nonce; `nonce` is it (§8).
    case useDPoPNonce(String, nonce: String)
    /// 401 at an API the request used the DPoP scheme for: the `DPoP` challenge (§7.1), with the
    /// server's nonce when the challenge asks for it.
    case dpopChallenge(DPoPChallenge, String, nonce: String?)
    /// 400: a grant type Sesame does not implement.
    case unsupportedGrantType(String)
    /// 400: a scope or audience the client may not ask for.
    case invalidScope(String)
    /// 400: a signup refused without saying why (the tenant hides whether an identifier is taken).
    case invalidSignup(String)
    /// 400 at `/dbconnections/signup` (and password changes): Auth0's database-connection refusals.
    case signupRefused(SignupRefusal)
    /// 403 `invalid_grant` "Wrong email or password.": the same answer for an unknown user and a
    /// wrong password (Auth0.swift's `isInvalidCredentials` compares the text).
    case wrongCredentials
    /// 401 `unauthorized` "user is blocked": the password was right, the user is blocked.
    case userBlocked
    /// 401 `password_leaked`: the password is breached and the tenant blocks such logins.
    case passwordLeaked
    /// 429 `too_many_attempts`: brute-force protection for this account and address, or address.
    case tooManyAttempts(String, retryAfterSeconds: Int)
    /// 403 `mfa_required`: the password was right; answer a second factor with `token`.
    case mfaRequired(token: String, requirement: MFARequirement)
    /// 403 with Auth0's MFA code and text (`invalid_grant` "Invalid otp_code.", `expired_token`
    /// "mfa_token is expired", `association_required`, …), which Auth0.swift compares.
    case mfaRefused(MFARefusal)
    /// 401: a missing, malformed, expired or foreign bearer token.
    case invalidToken(String)
    /// 403: a valid token without the scope the route needs.
    case insufficientScope(String)
    /// 404: unknown resource, or passkeys disabled.
    case notFound(String)
    /// 409: the change would break an invariant (e.g. delete the last way to sign in).
    case conflict(String)
    /// 429: the requester holds too much of a limited resource; retry after the given seconds.
    case tooManyRequests(String, retryAfterSeconds: Int)
    /// 503: the store is unreachable; nothing was written.
    case unavailable(String)
    /// 400 `invalid_grant`: the assertion named a credential the server does not know (deleted,
    /// or never registered here). The answer carries the RP ID and the credential id, so the
    /// page or app can tell the authenticator (`signalUnknownCredential`, docs/security.md).
    case unknownCredential(rpID: String, credentialID: String)
    /// 401 `reauthentication_required`: the change needs a sign-in newer than the session's.
    case reauthenticationRequired
    /// 401 `insufficient_user_authentication` (RFC 9470): a credential change needs a newer
    /// sign-in, or one that used the user's second factor (`CredentialChange`).
    case insufficientUserAuthentication(CredentialChange.Shortfall)
    /// 409 `already_registered`: the user already has a passkey from this provider (named), so
    /// another would only be a duplicate (docs/migration.md).
    case alreadyRegistered(provider: String)
    /// 403 `step_up_required`: an upgrade needs a second factor (`mfaToken` and its requirement)
    /// or, with neither, a newer sign-in (`challengeTypes` `["password"]`).
    case stepUpRequired(mfaToken: String?, challengeTypes: [String], requirement: MFARequirement?)
    /// 403 `upgrade_not_allowed` with the reason.
    case upgradeNotAllowed(UpgradeRefusal)
    /// 403 `invalid_grant`: the right password of an account whose password an upgrade replaced.
    case passwordReplaced(PasswordReplacement)
    /// 409 `identity_already_linked`: the provider's identity belongs to another account.
    case identityAlreadyLinked(String)

    /// The OAuth-style error code.
    public var code: String {
        switch self {
        case .invalidRequest: return "invalid_request"
        case .invalidClient: return "invalid_client"
        case .unauthorizedClient: return "unauthorized_client"
        case .invalidGrant, .deletedUserGrant, .unknownCredential: return "invalid_grant"
        case .invalidDPoPProof: return "invalid_dpop_proof"
        case .useDPoPNonce: return "use_dpop_nonce"
        case .dpopChallenge(let challenge, _, _): return challenge.rawValue
        case .unsupportedGrantType: return "unsupported_grant_type"
        case .invalidScope: return "invalid_scope"
        case .invalidSignup: return "invalid_signup"
        case .signupRefused(let refusal): return refusal.code
        case .wrongCredentials: return "invalid_grant"
        case .userBlocked: return "unauthorized"
        case .tooManyAttempts: return "too_many_attempts"
        case .passwordLeaked: return "password_leaked"
        case .mfaRequired: return "mfa_required"
        case .mfaRefused(let refusal): return refusal.code
        case .invalidToken: return "invalid_token"
        case .insufficientScope: return "insufficient_scope"
        case .notFound: return "not_found"
        case .conflict: return "conflict"
        case .tooManyRequests: return "too_many_requests"
        case .unavailable: return "temporarily_unavailable"
        case .reauthenticationRequired: return "reauthentication_required"
        case .alreadyRegistered: return "already_registered"
        case .insufficientUserAuthentication: return "insufficient_user_authentication"
        case .stepUpRequired: return "step_up_required"
        case .upgradeNotAllowed: return "upgrade_not_allowed"
        case .passwordReplaced: return "invalid_grant"
        case .identityAlreadyLinked: return "identity_already_linked"
        }
    }

    /// The human description.
    public var message: String {
        switch self {
        case .invalidRequest(let text), .invalidClient(let text), .unauthorizedClient(let text),
            .invalidGrant(let text), .deletedUserGrant(let text), .unsupportedGrantType(let text),
            .invalidDPoPProof(let text), .useDPoPNonce(let text, _), .dpopChallenge(_, let text, _),
            .invalidScope(let text), .invalidSignup(let text),
            .invalidToken(let text), .insufficientScope(let text), .notFound(let text), .conflict(let text),
            .unavailable(let text), .tooManyRequests(let text, _), .tooManyAttempts(let text, _):
            return text
        case .signupRefused(let refusal): return refusal.description
        case .wrongCredentials: return "Wrong email or password."
        case .userBlocked: return "user is blocked"
        case .mfaRequired: return "Multifactor authentication required"
        case .passwordLeaked:
            return "This login attempt has been blocked because the password you're using was previously disclosed "
                + "through a data breach (not in this application). Please check your email for more information."
        case .mfaRefused(let refusal): return refusal.description
        case .unknownCredential: return "unknown credential"
        case .reauthenticationRequired: return "sign in again to make this change"
        case .insufficientUserAuthentication(.stale):
            return "sign in again to make this change"
        case .insufficientUserAuthentication(.secondFactor):
            return "sign in again with your second factor to make this change"
        case .alreadyRegistered(let provider):
            return "you already have a passkey in \(provider) for this account; sign in with it"
        case .stepUpRequired(let token, _, _):
            return token == nil
                ? "sign in again to authorize this upgrade" : "verify a second factor to authorize this upgrade"
        case .upgradeNotAllowed(let reason): return reason.description
        case .passwordReplaced(.apple): return "This account signs in with Apple."
        case .passwordReplaced(.passkey): return "This account signs in with a passkey."
        case .identityAlreadyLinked(let text): return text
        }
    }

    public var description: String { "\(code): \(message)" }

    /// Store failures in service terms: a conflict is the caller's, anything else is unavailability.
    static func from(_ error: StoreError) -> ServiceError {
        switch error {
        case .conflict(.resourceServerIdentifier): return .conflict("an API with this identifier already exists")
        // Two accounts linking one Apple ID at once: the loser hears what a later one would.
        case .conflict(.linkedIdentity): return .identityAlreadyLinked("this Apple ID is linked to another account")
        case .conflict(let rule): return .invalidRequest("\(rule.rawValue) already exists")
        case .notFound(let what): return .notFound("\(what) not found")
        case .unavailable: return .unavailable("the store is unavailable; nothing was written")
        case .corrupt: return .unavailable("stored data could not be read")
        }
    }
}
