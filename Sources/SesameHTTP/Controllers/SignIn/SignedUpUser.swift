import Foundation
import SesameService
import SesameStore

/// The `/dbconnections/signup` answer, as Auth0 records it: the bare id (no provider prefix), the
/// email with `email_verified`, and the profile fields that were set.
struct SignedUpUser: Encodable {
    var id: String
    var email: String?
    var emailVerified: Bool
    var username: String?
    var phoneNumber: String?
    var name: String?
    var givenName: String?
    var familyName: String?
    var nickname: String?
    var picture: String?
    var userMetadata: [String: String]?

    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case email, username, name, nickname, picture
        case emailVerified = "email_verified"
        case phoneNumber = "phone_number"
        case givenName = "given_name"
        case familyName = "family_name"
        case userMetadata = "user_metadata"
    }

    init(_ user: UserRecord) {
        id = ManagedUser.bareID(user.id)
        email = user.profile.email
        emailVerified = user.profile.emailVerified
        username = user.profile.username
        phoneNumber = user.profile.phoneNumber
        name = user.profile.name
        givenName = user.profile.givenName
        familyName = user.profile.familyName
        nickname = user.profile.nickname
        picture = user.profile.picture
        userMetadata = user.userMetadata.isEmpty ? nil : user.userMetadata
    }
}
