import Foundation
import SesameWire

/// A user's profile.
public struct UserProfile: Sendable, Hashable, Codable {
    public var email: String?
    public var emailVerified: Bool
    public var phoneNumber: String?
    public var username: String?
    public var name: String?
    public var givenName: String?
    public var familyName: String?
    public var nickname: String?
    public var picture: String?
    public var middleName: String?
    public init(
        email: String? = nil, emailVerified: Bool = false, phoneNumber: String? = nil, username: String? = nil,
        name: String? = nil, givenName: String? = nil, familyName: String? = nil, nickname: String? = nil,
        picture: String? = nil, middleName: String? = nil
    ) {
        self.middleName = middleName
        self.email = email
        self.emailVerified = emailVerified
        self.phoneNumber = phoneNumber
        self.username = username
        self.name = name
        self.givenName = givenName
        self.familyName = familyName
        self.nickname = nickname
        self.picture = picture
    }
}

extension ProfileAttribute {
    /// Where the value lives in a profile.
    public var path: WritableKeyPath<UserProfile, String?> & Sendable {
        switch self {
        case .name: \.name
        case .givenName: \.givenName
        case .familyName: \.familyName
        case .nickname: \.nickname
        case .picture: \.picture
        case .middleName: \.middleName
        }
    }
}

extension UserProfile {
    /// The value of `attribute`.
    public subscript(attribute: ProfileAttribute) -> String? {
        get { self[keyPath: attribute.path] }
        set { self[keyPath: attribute.path] = newValue }
    }
}

/// A user's password: the hash and when it was set and used. An imported hash stays in the form it
/// came in (`scheme`) until the first login that verifies it replaces it with Argon2id.
public struct PasswordCredential: Sendable, Hashable, Codable {
    /// The authentication-method id, `password|<hex>`.
    public var id: String
    public var scheme: PasswordHashScheme
    /// The hash as `scheme` writes it: a PHC string (`$argon2id$v=19$…`, `$pbkdf2-sha256$…`), a
    /// bcrypt string (`$2b$…`), or `$sha256-salted$…` (docs/passwords.md has each form).
    public var hash: String
    public var createdAt: Date
    /// When the password was last set (signup, change, reset, import).
    public var changedAt: Date
    /// This password in place of `existing`: the method keeps its id and creation time.
    public func replacing(_ existing: PasswordCredential?) -> PasswordCredential {
        guard let existing else { return self }
        var kept = self
        kept.id = existing.id
        kept.createdAt = existing.createdAt
        return kept
    }

    public init(id: String, scheme: PasswordHashScheme, hash: String, createdAt: Date, changedAt: Date) {
        self.id = id
        self.scheme = scheme
        self.hash = hash
        self.createdAt = createdAt
        self.changedAt = changedAt
    }
}

/// A second factor a user enrolled. It is `active` from the first login that used it; until then
/// it can be replaced by enrolling again.
public struct MFAEnrollment: Sendable, Hashable, Codable {
    /// Auth0's authenticator id: `totp|dev_…`, `sms|dev_…`, `recovery-code|dev_…`.
    public var id: String
    public var factor: MFAFactor
    public var active: Bool
    public var createdAt: Date
    /// TOTP: the secret, sealed with AES-256-GCM under a key derived from the master key. A
    /// recovery code the user has not yet said they saved: the code, sealed the same way, so the
    /// hosted page can show it again until then (empty afterwards).
    @Base64Bytes public var sealedSecret: [UInt8]
    /// TOTP: the last time step accepted, so a code is used once.
    public var lastUsedStep: Int64?
    /// SMS: the E.164 number.
    public var phoneNumber: String?
    /// Recovery code: SHA-256 of the code (a random 24-character code).
    @Base64Bytes public var codeHash: [UInt8]

    public init(
        id: String, factor: MFAFactor, active: Bool, createdAt: Date, sealedSecret: [UInt8] = [],
        lastUsedStep: Int64? = nil, phoneNumber: String? = nil, codeHash: [UInt8] = []
    ) {
        self.id = id
        self.factor = factor
        self.active = active
        self.createdAt = createdAt
        self.sealedSecret = sealedSecret
        self.lastUsedStep = lastUsedStep
        self.phoneNumber = phoneNumber
        self.codeHash = codeHash
    }
}

/// A user of one connection.
public struct UserRecord: Sendable, Hashable, Codable, VersionedRecord {
    /// 2: the password and second factors. 3: the migration state (the passkey prompt's snooze,
    /// the platforms the user signed in with a passkey on). 4: the password's replacement. 5: the
    /// middle name.
    public static let currentVersion = 5
    public var version = UserRecord.currentVersion
    public var tenantID: String
    /// e.g. "auth0|6f1c…" style: "sesame|<hex>".
    public var id: String
    public var connectionID: String
    /// The WebAuthn user handle (32 random bytes).
    @Base64Bytes public var userHandle: [UInt8]
    public var profile: UserProfile
    /// At most 10 string values.
    public var userMetadata: [String: String]
    public var blocked: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public var lastLoginAt: Date?
    /// The password, for a user of a connection with passwords who has one.
    public var password: PasswordCredential?
    /// Second factors, in the order enrolled; nil when there are none (rows from before version
    /// 2 have no such member).
    public var mfaEnrollments: [MFAEnrollment]?
    /// Until when the token endpoint's passkey-enrollment prompt stays hidden (My Account's snooze).
    public var passkeyPromptSnoozedUntil: Date?
    /// The platforms the user has signed in with a passkey on; nil for none (rows from before
    /// version 3 have no such member).
    public var passkeyPlatformList: [ClientPlatform]?
    /// What replaced the password in an account security upgrade (docs/account-upgrades.md): the password is
    /// kept, hashed, only to answer a sign-in with it by naming the new method; it signs no one in.
    public var passwordReplacement: PasswordReplacement?
    /// When `passwordReplacement` happened.
    public var passwordReplacedAt: Date?

    /// The platforms the user has signed in with a passkey on (the method hints' `prefer_passkey`).
    public var passkeyPlatforms: [ClientPlatform] {
        get { passkeyPlatformList ?? [] }
        set { passkeyPlatformList = newValue.isEmpty ? nil : newValue }
    }

    /// The password when it still signs in (none was replaced by an upgrade).
    public var usablePassword: PasswordCredential? { passwordReplacement == nil ? password : nil }

    /// Second factors, in the order enrolled. None is kept as nil, so a record has one form
    /// whichever way it was made or read.
    public var mfa: [MFAEnrollment] {
        get { mfaEnrollments ?? [] }
        set { mfaEnrollments = newValue.isEmpty ? nil : newValue }
    }

    public init(
        tenantID: String, id: String, connectionID: String, userHandle: [UInt8], profile: UserProfile,
        userMetadata: [String: String] = [:], blocked: Bool = false, createdAt: Date, updatedAt: Date,
        lastLoginAt: Date? = nil, password: PasswordCredential? = nil, mfa: [MFAEnrollment] = []
    ) {
        self.password = password
        self.mfaEnrollments = mfa.isEmpty ? nil : mfa
        self.tenantID = tenantID
        self.id = id
        self.connectionID = connectionID
        self.userHandle = userHandle
        self.profile = profile
        self.userMetadata = userMetadata
        self.blocked = blocked
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastLoginAt = lastLoginAt
    }
}

// MARK: The binary form

extension UserRecord: BinaryCodedRecord {
    /// 1: the account and profile. 2: the password and second factors. 3: the passkey prompt's
    /// snooze and the passkey platforms. 4: the password's replacement. 5: the middle name.
    public static let recordFields = RecordFields<UserRecord>(
        blank: UserRecord(
            tenantID: "", id: "", connectionID: "", userHandle: [], profile: UserProfile(), createdAt: .distantPast,
            updatedAt: .distantPast),
        [
            .field("tenantID", \.tenantID),
            .field("id", \.id),
            .field("connectionID", \.connectionID),
            .field("userHandle", \._userHandle.wrappedValue),
            .field("profile.email", \.profile.email),
            .field("profile.emailVerified", \.profile.emailVerified),
            .field("profile.phoneNumber", \.profile.phoneNumber),
            .field("profile.username", \.profile.username),
            .field("profile.name", \.profile.name),
            .field("profile.givenName", \.profile.givenName),
            .field("profile.familyName", \.profile.familyName),
            .field("profile.nickname", \.profile.nickname),
            .field("profile.picture", \.profile.picture),
            .field("userMetadata", \.userMetadata),
            .field("blocked", \.blocked),
            .field("createdAt", \.createdAt),
            .field("updatedAt", \.updatedAt),
            .field("lastLoginAt", \.lastLoginAt),
            .field("password", \.password, since: 2),
            .field("mfa", \.mfaEnrollments, nilIs: [], since: 2),
            .field("passkeyPromptSnoozedUntil", \.passkeyPromptSnoozedUntil, since: 3),
            .field("passkeyPlatforms", \.passkeyPlatformList, nilIs: [], since: 3),
            .field("passwordReplacement", listOfOne: \.passwordReplacement, since: 4),
            .field("passwordReplacedAt", \.passwordReplacedAt, since: 4),
            .field("profile.middleName", \.profile.middleName, since: 5),
        ])
}

extension PasswordCredential: RecordTabled {
    public static let recordFields = RecordFields<PasswordCredential>(
        blank: PasswordCredential(
            id: "", scheme: .argon2id, hash: "", createdAt: .distantPast, changedAt: .distantPast),
        [
            .field("id", \.id),
            .field("scheme", \.scheme),
            .field("hash", \.hash),
            .field("createdAt", \.createdAt),
            .field("changedAt", \.changedAt),
        ])
}

extension MFAEnrollment: RecordTabled {
    public static let recordFields = RecordFields<MFAEnrollment>(
        blank: MFAEnrollment(id: "", factor: .otp, active: false, createdAt: .distantPast),
        [
            .field("id", \.id),
            .field("factor", \.factor),
            .field("active", \.active),
            .field("createdAt", \.createdAt),
            .field("sealedSecret", \._sealedSecret.wrappedValue),
            .field("lastUsedStep", \.lastUsedStep),
            .field("phoneNumber", \.phoneNumber),
            .field("codeHash", \._codeHash.wrappedValue),
        ])
}
