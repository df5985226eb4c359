import SesameStore
import SesameWire

/// What `PATCH /api/v2/users/{id}` changes; `.keep`/nil leaves a field as it is, `.remove` (JSON
/// null) clears it. `user_metadata` merges: a nil value deletes that key.
public struct UserPatch: Sendable {
    public var email: FieldChange<String>
    public var emailVerified: Bool?
    public var phoneNumber: FieldChange<String>
    public var username: FieldChange<String>
    /// The free-text attributes to change; one not named is kept.
    public var attributes: [ProfileAttribute: FieldChange<String>]
    public var userMetadata: [String: String?]?
    public var blocked: Bool?
    /// A new password (Auth0's `password`): checked against the connection's rules, then hashed.
    public var password: String?
    /// `connection`: Auth0 sends the user's connection beside a password; it must be that one.
    public var connection: String?

    public init(
        email: FieldChange<String> = .keep, emailVerified: Bool? = nil, phoneNumber: FieldChange<String> = .keep,
        username: FieldChange<String> = .keep, name: FieldChange<String> = .keep,
        givenName: FieldChange<String> = .keep, familyName: FieldChange<String> = .keep,
        nickname: FieldChange<String> = .keep, picture: FieldChange<String> = .keep,
        userMetadata: [String: String?]? = nil, blocked: Bool? = nil, password: String? = nil,
        connection: String? = nil
    ) {
        self.connection = connection
        self.password = password
        self.email = email
        self.emailVerified = emailVerified
        self.phoneNumber = phoneNumber
        self.username = username
        self.attributes = [
            .name: name, .givenName: givenName, .familyName: familyName, .nickname: nickname, .picture: picture,
        ].filter { _, change in
            if case .keep = change { return false }
            return true
        }
        self.userMetadata = userMetadata
        self.blocked = blocked
    }
}
