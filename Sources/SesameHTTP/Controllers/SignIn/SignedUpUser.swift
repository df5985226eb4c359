import Foundation
import SesameService
import SesameStore
import SesameWire

/// The `/dbconnections/signup` answer, as Auth0 records it: the bare id (no provider prefix), the
/// email with `email_verified`, and the profile fields that were set.
struct SignedUpUser: Encodable {
    var id: String
    var email: String?
    var emailVerified: Bool
    var username: String?
    var phoneNumber: String?
    var attributes: [ProfileAttribute: String]
    var userMetadata: [String: String]?

    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case email, username
        case emailVerified = "email_verified"
        case phoneNumber = "phone_number"
        case userMetadata = "user_metadata"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encode(emailVerified, forKey: .emailVerified)
        try container.encodeIfPresent(username, forKey: .username)
        try container.encodeIfPresent(phoneNumber, forKey: .phoneNumber)
        try ProfileAttributeKey.encode(attributes, to: encoder)
        try container.encodeIfPresent(userMetadata, forKey: .userMetadata)
    }

    init(_ user: UserRecord) {
        id = ManagedUser.bareID(user.id)
        email = user.profile.email
        emailVerified = user.profile.emailVerified
        username = user.profile.username
        phoneNumber = user.profile.phoneNumber
        attributes = ProfileAttributeKey.values(user.profile)
        userMetadata = user.userMetadata.isEmpty ? nil : user.userMetadata
    }
}
