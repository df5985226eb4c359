// The closed vocabularies of stored records. Each is an enum with the wire value as its raw value:
// a stored value that is not a case fails to decode (`StoreError.corrupt` naming the record and the
// field), never falls back to a default. The Management API's validation, the discovery document
// and the metric labels are derived from these `allCases`.

/// Auth0's `app_type`.
public enum ClientAppType: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case native
    case spa
    case regularWeb = "regular_web"
    case nonInteractive = "non_interactive"

    /// Whether a person signs in through it (everything but machine-to-machine).
    public var isInteractive: Bool { self != .nonInteractive }
}

/// The OAuth grants Sesame implements, by their `grant_type` value. (A version-1 client had
/// `authorization_code` before `/authorize` existed, unused; it loses it on upgrade, so no client
/// gains the code flow without its callbacks being looked at again.)
public enum OAuthGrantType: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    /// The code from `/authorize` (RFC 6749 §4.1, with PKCE, RFC 7636).
    case authorizationCode = "authorization_code"
    case webAuthn = "urn:okta:params:oauth:grant-type:webauthn"
    case refreshToken = "refresh_token"
    case clientCredentials = "client_credentials"
    /// Resource-owner password with the tenant's default connection (RFC 6749 §4.3).
    case password
    /// Auth0's password grant that names the connection as `realm`.
    case passwordRealm = "http://auth0.com/oauth/grant-type/password-realm"
    /// Auth0's MFA grants: a TOTP code, an out-of-band (SMS) code, a recovery code.
    case mfaOTP = "http://auth0.com/oauth/grant-type/mfa-otp"
    case mfaOOB = "http://auth0.com/oauth/grant-type/mfa-oob"
    case mfaRecoveryCode = "http://auth0.com/oauth/grant-type/mfa-recovery-code"
    /// Sesame's re-authentication with a legacy device key (docs/migration.md); never a first factor.
    case deviceKey = "urn:sesame:params:oauth:grant-type:device-key"
    /// RFC 8693 token exchange: Sign in with Apple (an Apple authorization code, Auth0's native
    /// form, or an Apple identity token), docs/account-upgrades.md
    case tokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"

    /// The `method` label of the login metric.
    public var metricLabel: String {
        switch self {
        case .authorizationCode: return "authorization_code"
        case .webAuthn: return "passkey"
        case .refreshToken: return "refresh_token"
        case .clientCredentials: return "client_credentials"
        case .password, .passwordRealm: return "password"
        case .mfaOTP, .mfaOOB, .mfaRecoveryCode: return "mfa"
        case .deviceKey: return "device_key"
        case .tokenExchange: return "apple"
        }
    }
}

/// How a stored password hash was made. Sesame makes only `argon2id`; the others come from an
/// import (Auth0's `custom_password_hash` algorithms) and are replaced at the next login.
public enum PasswordHashScheme: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    /// Argon2id in the PHC string form, made by Sesame.
    case argon2id
    /// Imported: bcrypt `$2a$`, `$2b$` or `$2y$` (checked with libxcrypt's `crypt_r`).
    case bcrypt
    /// Imported: an Argon2 PHC string (argon2i, argon2d or argon2id, version 16 or 19).
    case argon2
    /// Imported: a PBKDF2 PHC string (`$pbkdf2-sha1|sha256|sha512$i=…,l=…$salt$hash`).
    case pbkdf2
    /// Imported: SHA-256 over the password and a salt (`$sha256-salted$prefix|suffix$salt$hash`).
    case sha256Salted = "sha256-salted"
}

/// A second factor (Auth0 Guardian's factor names).
public enum MFAFactor: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    /// TOTP (RFC 6238) in an authenticator app.
    case otp
    /// A one-time code by SMS.
    case sms
    /// A single-use recovery code.
    case recoveryCode = "recovery-code"
}

/// Auth0's Guardian policy: when a password login asks for a second factor.
public enum MFAPolicy: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    /// `[]`: only users who enrolled a factor are asked.
    case enrolledUsers = "enrolled-users"
    /// `["all-applications"]`: every password login; a user with no factor enrolls first.
    case allApplications = "all-applications"
}

/// Auth0's breached-password shields (responses to a breached password).
public enum BreachShield: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case block
    case userNotification = "user_notification"
    case adminNotification = "admin_notification"
}

/// Auth0's `admin_notification_frequency` values.
public enum BreachNotificationFrequency: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case immediately, daily, weekly, monthly
}

/// Auth0's breached-password detection `method`: `standard` checks the offline corpus, `enhanced`
/// also asks the tenant's k-anonymity range endpoint (Sesame's stand-in for Credential Guard).
public enum BreachMethod: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case standard
    case enhanced
}

/// How a client authenticates at the token endpoint (RFC 7591 §2).
public enum TokenEndpointAuthMethod: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case none
    case clientSecretPost = "client_secret_post"
    case clientSecretBasic = "client_secret_basic"
}

/// A JWS signing algorithm Sesame signs tokens with (RFC 7518 §3, RFC 8037). `none` and the HMAC
/// algorithms are deliberately absent: a header naming them never parses into this type.
public enum JWTAlgorithm: String, RecordVocabulary, Sendable, Hashable, CaseIterable, Codable {
    /// RSASSA-PKCS1-v1_5 with SHA-256 over an RSA key (2048 bits when Sesame creates it). OIDC's default.
    case rs256 = "RS256"
    /// ECDSA P-256 with SHA-256; the signature is raw r ‖ s (64 bytes).
    case es256 = "ES256"
    /// Ed25519 (RFC 8037).
    case edDSA = "EdDSA"
}

/// A connection's user-verification requirement for passkey ceremonies (WebAuthn §5.8.6).
public enum UserVerificationPolicy: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case required
    case preferred
    case discouraged
}

/// Auth0's `passkey_options.challenge_ui`: how the login page offers passkeys.
public enum ChallengeUI: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case both
    case autofill
    case button
}

/// A registration's attestation statement format (`fmt`, WebAuthn §8).
public enum AttestationFormat: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case none
    case packed
    case tpm
    case androidKey = "android-key"
    case androidSafetyNet = "android-safetynet"
    case fidoU2F = "fido-u2f"
    case apple
}

/// What an auth event records.
public enum AuthEventKind: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case signup
    case login
    case refresh
    case clientCredentials = "client_credentials"
    case enroll
    /// A password was set or changed (Management, reset, import rehash is not one).
    case passwordChange = "password_change"
    /// An account was recovered (a user who lost every passkey proved their email address).
    case recovery
    /// An account security upgrade was committed (docs/account-upgrades.md); the method says to what.
    case upgrade
}

/// How the event's user or client authenticated.
public enum AuthEventMethod: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case passkey
    case refreshToken = "refresh_token"
    case clientSecret = "client_secret"
    case password
    case otp
    case sms
    case recoveryCode = "recovery_code"
    /// A one-time code sent by email (account recovery).
    case emailCode = "email_code"
    /// A legacy device key (a re-authentication of a signed-in user, docs/migration.md).
    case deviceKey = "device_key"
    /// Sign in with Apple (an identity token verified against Apple's keys).
    case apple
}

/// How an auth event ended.
public enum AuthEventOutcome: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case success
    case invalidGrant = "invalid_grant"
    case invalidSignup = "invalid_signup"
    case blocked
}

/// Where a ceremony ran, from its origin: an Android app (`android:apk-key-hash:`), the site's own
/// origin `https://<rpId>` (an iOS app and the site share it), or another web origin.
public enum AuthPlatform: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case android
    case iosOrWeb = "ios_or_web"
    case web
}

/// The platform a device or a request runs on (the migration rules and the adoption statistics):
/// Apple's platforms count as `ios`.
public enum ClientPlatform: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case ios
    case android
    case web
}

/// A legacy device key's state (docs/migration.md).
public enum DeviceKeyState: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case active
    /// Its user enrolled a passkey after re-authenticating with it; it works until the grace period ends.
    case migrated
    /// Revoked through the Management API; it never works again.
    case revoked
}

/// Whether a passkey can leave its device (its backup-eligible flag, WebAuthn §6.1).
public enum PasskeyKind: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case synced
    case deviceBound = "device_bound"
}

/// The methods the adoption statistics count authentications by (docs/migration.md).
public enum AuthStatsMethod: String, Sendable, Hashable, Codable, CaseIterable {
    case passkey
    case deviceKey = "device_key"
    case password
    case apple
    case refresh
    /// Upgrades (docs/account-upgrades.md), counted apart from authentications: a weak or breached password
    /// moved to a strong password, to Sign in with Apple, or to a passkey.
    case upgradeStrongPassword = "upgrade_strong_password"
    case upgradeSignInWithApple = "upgrade_sign_in_with_apple"
    case upgradePasskey = "upgrade_passkey"

    /// The upgrade this method counts, or nil for an authentication method.
    public var upgrade: UpgradeType? {
        switch self {
        case .upgradeStrongPassword: .strongPassword
        case .upgradeSignInWithApple: .signInWithApple
        case .upgradePasskey: .passkey
        case .passkey, .deviceKey, .password, .apple, .refresh: nil
        }
    }
}

/// What a connection holds: a user directory of its own (`auth0` on Auth0's wire) or the settings
/// of a social identity provider whose identities link to users of a database connection.
public enum ConnectionStrategy: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case database = "auth0"
    case apple
}

/// An account security upgrade's target (docs/account-upgrades.md).
public enum UpgradeType: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case strongPassword = "strong_password"
    case signInWithApple = "sign_in_with_apple"
    case passkey
}

/// When an upgrade asks for a second factor first (`options.upgrades.step_up`).
public enum StepUpRule: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    /// When the user has an active second factor the session has not used.
    case whenEnrolled = "when_enrolled"
    /// Always, unless the session already used a second factor (a user with none enrolls one).
    case always
    case never
}

/// What took a password's place after an upgrade; the password no longer signs in.
public enum PasswordReplacement: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case apple
    case passkey
}

/// The identity provider of a linked identity (the user's `identities` entry).
public enum IdentityProvider: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case apple
}

/// Says which field of a stored record failed to decode, for `StoreError.corrupt`.
public enum RecordDecodingFailure {
    /// "field grantTypes[1]: <why>" for a `DecodingError`; the error's text otherwise.
    public static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        let context: DecodingError.Context
        switch decoding {
        case .dataCorrupted(let found), .keyNotFound(_, let found), .typeMismatch(_, let found),
            .valueNotFound(_, let found):
            context = found
        @unknown default:
            return "\(error)"
        }
        var field = ""
        for key in context.codingPath {
            if let index = key.intValue {
                field += "[\(index)]"
            } else {
                field += field.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        if case .keyNotFound(let key, _) = decoding {
            field += field.isEmpty ? key.stringValue : "." + key.stringValue
            return "field \(field) is missing"
        }
        return field.isEmpty ? context.debugDescription : "field \(field): \(context.debugDescription)"
    }
}

/// A stored record with a schema version. A backend that decodes rows checks the version read
/// against `currentVersion`: a row written by a newer Sesame is refused as corrupt rather than
/// half-understood. (Older versions are upgraded by the record's own decoder, e.g. `ClientRecord`.)
public protocol VersionedRecord: Codable {
    static var currentVersion: Int { get }
    var version: Int { get }
}

extension VersionedRecord {
    /// Throws `corrupt` naming `table` when the row's version is newer than this build knows.
    public func checkVersion(table: String) throws {
        guard version <= Self.currentVersion else {
            throw StoreError.corrupt(
                "a row of \(table) has version \(version), newer than this Sesame reads (\(Self.currentVersion))")
        }
    }
}
