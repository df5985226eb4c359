import SesameStore
import SesameWire

/// A user as the Management API returns it (Auth0's field names).
public struct ManagedUser: Encodable, Sendable {
    /// One entry of `identities`: the connection the user belongs to.
    public struct Identity: Encodable, Sendable {
        public var connection: String
        public var provider: String
        public var userID: String
        public var isSocial: Bool
        enum CodingKeys: String, CodingKey {
            case connection, provider, isSocial
            case userID = "user_id"
        }
    }

    public var userID: String
    public var email: String?
    public var emailVerified: Bool
    public var phoneNumber: String?
    public var username: String?
    /// The free-text attributes that are set.
    public var attributes: [ProfileAttribute: String]
    public var userMetadata: [String: String]
    public var blocked: Bool
    public var identities: [Identity]
    public var createdAt: String
    public var updatedAt: String
    public var lastLogin: String?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case email
        case emailVerified = "email_verified"
        case phoneNumber = "phone_number"
        case username
        case userMetadata = "user_metadata"
        case blocked, identities
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case lastLogin = "last_login"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userID, forKey: .userID)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encode(emailVerified, forKey: .emailVerified)
        try container.encodeIfPresent(phoneNumber, forKey: .phoneNumber)
        try container.encodeIfPresent(username, forKey: .username)
        try ProfileAttributeKey.encode(attributes, to: encoder)
        try container.encode(userMetadata, forKey: .userMetadata)
        try container.encode(blocked, forKey: .blocked)
        try container.encode(identities, forKey: .identities)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(lastLogin, forKey: .lastLogin)
    }

    /// A user id without its provider prefix: the id of the user's identity (`auth0|abc` → `abc`).
    public static func bareID(_ id: String) -> String {
        id.split(separator: "|", maxSplits: 1).last.map(String.init) ?? id
    }

    /// `linked`: the user's linked identities with their connections' names (Auth0 lists a social
    /// identity after the primary one, `isSocial` true, its `user_id` the provider's).
    init(_ user: UserRecord, connectionName: String, linked: [(LinkedIdentityRecord, String)] = []) {
        userID = user.id
        email = user.profile.email
        emailVerified = user.profile.emailVerified
        phoneNumber = user.profile.phoneNumber
        username = user.profile.username
        attributes = ProfileAttributeKey.values(user.profile)
        userMetadata = user.userMetadata
        blocked = user.blocked
        identities = [
            Identity(connection: connectionName, provider: "auth0", userID: Self.bareID(user.id), isSocial: false)
        ]
        for (identity, name) in linked {
            identities.append(
                Identity(
                    connection: name, provider: identity.provider.rawValue, userID: identity.subject, isSocial: true))
        }
        createdAt = APITimestamp.string(user.createdAt)
        updatedAt = APITimestamp.string(user.updatedAt)
        lastLogin = user.lastLoginAt.map(APITimestamp.string)
    }
}

/// A profile attribute as a JSON member, named as the attribute is.
public struct ProfileAttributeKey: CodingKey {
    public let stringValue: String
    public var intValue: Int? { nil }
    public init(_ attribute: ProfileAttribute) { stringValue = attribute.rawValue }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }

    /// The attributes of `profile` that are set.
    public static func values(_ profile: UserProfile) -> [ProfileAttribute: String] {
        var values: [ProfileAttribute: String] = [:]
        for attribute in ProfileAttribute.allCases { values[attribute] = profile[attribute] }
        return values
    }

    /// Writes the attributes that are set, in the order they are declared.
    public static func encode(_ attributes: [ProfileAttribute: String], to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ProfileAttributeKey.self)
        for attribute in ProfileAttribute.allCases {
            try container.encodeIfPresent(attributes[attribute], forKey: ProfileAttributeKey(attribute))
        }
    }
}
