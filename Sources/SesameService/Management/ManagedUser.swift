import SesameStore

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
    public var name: String?
    public var givenName: String?
    public var familyName: String?
    public var nickname: String?
    public var picture: String?
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
        case username, name
        case givenName = "given_name"
        case familyName = "family_name"
        case nickname, picture
        case userMetadata = "user_metadata"
        case blocked, identities
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case lastLogin = "last_login"
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
        name = user.profile.name
        givenName = user.profile.givenName
        familyName = user.profile.familyName
        nickname = user.profile.nickname
        picture = user.profile.picture
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
