import Foundation
import SesameCrypto
import SesameStore
import WebAuthn

/// A passkey or a password as an authentication method, in the shape both the Management API
/// (Auth0's `/users/{id}/authentication-methods`) and the My Account API return it. The passkey
/// members are absent for a password.
public struct AuthenticationMethod: Encodable, Sendable {
    /// Auth0's names of the kinds of authentication method.
    public enum Kind: String, Encodable, Sendable, CaseIterable {
        case password, passkey
        /// An authenticator app's codes (Management API only).
        case totp
        /// Codes by text message (Management API only).
        case phone
        /// The recovery code that goes with the second factors (Management API only).
        case recoveryCode = "recovery-code"
    }

    public var id: String
    public var type: Kind
    public var name: String?
    public var createdAt: String
    public var lastAuthAt: String?
    /// The credential id, base64url (My Account's `key_id`; also `credential_id` on the Management API).
    public var keyID: String?
    public var credentialID: String?
    /// The COSE_Key: base64url on the Management API, padded standard base64 on My Account (as
    /// Auth0 sends it, and as Auth0.swift decodes it with `Data(base64Encoded:)`).
    public var publicKey: String?
    /// The user's WebAuthn user handle, base64url (My Account only).
    public var userHandle: String?
    /// The user id without its provider prefix (`auth0|abc` → `abc`), My Account only.
    public var identityUserID: String?
    /// The RP ID the passkey is scoped to (My Account only).
    public var relyingPartyID: String?
    /// `["primary"]`: a passkey signs a user in on its own (My Account only).
    public var usage: [String]?
    /// The authenticator model, 8-4-4-4-12 lowercase hex.
    public var aaguid: String?
    /// `multi_device` when the credential is backup eligible (synced), else `single_device`.
    public var credentialDeviceType: String?
    public var credentialBackedUp: Bool?
    public var transports: [String]?
    /// When a password was last set (a password only).
    public var passwordChangedAt: String?
    /// A second factor: whether the user finished enrolling it.
    public var confirmed: Bool?
    /// Text-message codes: the number, as E.164.
    public var phoneNumber: String?
    /// Text-message codes: how the codes go (`sms`, the one channel Sesame sends).
    public var preferredAuthenticationMethod: PhoneChannel?

    /// Auth0's `preferred_authentication_method` of a phone factor.
    public enum PhoneChannel: String, Encodable, Sendable {
        case sms
    }

    enum CodingKeys: String, CodingKey {
        case id, type, name, aaguid, transports
        case createdAt = "created_at"
        case lastAuthAt = "last_auth_at"
        case keyID = "key_id"
        case credentialID = "credential_id"
        case publicKey = "public_key"
        case userHandle = "user_handle"
        case identityUserID = "identity_user_id"
        case relyingPartyID = "relying_party_id"
        case usage
        case credentialDeviceType = "credential_device_type"
        case credentialBackedUp = "credential_backed_up"
        case passwordChangedAt = "password_changed_at"
        case confirmed
        case phoneNumber = "phone_number"
        case preferredAuthenticationMethod = "preferred_authentication_method"
    }

    /// A password, as both APIs list it (My Account adds `identity_user_id` and `usage`).
    static func password(_ credential: PasswordCredential, user: UserRecord, myAccount: Bool) -> AuthenticationMethod {
        var method = AuthenticationMethod(
            id: credential.id, type: .password, createdAt: APITimestamp.string(credential.createdAt))
        method.passwordChangedAt = APITimestamp.string(credential.changedAt)
        if myAccount {
            method.identityUserID = ManagedUser.bareID(user.id)
            method.usage = ["primary"]
        }
        return method
    }

    /// A second factor, as the Management API lists it.
    static func management(_ enrollment: MFAEnrollment) -> AuthenticationMethod {
        let kind: Kind
        switch enrollment.factor {
        case .otp: kind = .totp
        case .sms: kind = .phone
        case .recoveryCode: kind = .recoveryCode
        }
        var method = AuthenticationMethod(
            id: enrollment.id, type: kind, createdAt: APITimestamp.string(enrollment.createdAt))
        method.confirmed = enrollment.active
        if enrollment.factor == .sms {
            method.phoneNumber = enrollment.phoneNumber
            method.preferredAuthenticationMethod = .sms
        }
        return method
    }

    private init(id: String, type: Kind, createdAt: String) {
        self.id = id
        self.type = type
        self.createdAt = createdAt
    }

    /// The Management API form: with `credential_id` and `public_key`.
    static func management(_ passkey: PasskeyRecord) -> AuthenticationMethod {
        var method = AuthenticationMethod(passkey)
        method.credentialID = method.keyID
        method.publicKey = Base64URL.encode(passkey.publicKey)
        return method
    }

    /// The My Account form (Auth0's `AuthenticationMethodPasskey`): with `user_handle`,
    /// `identity_user_id`, `relying_party_id`, `public_key` and `usage`.
    static func myAccount(_ passkey: PasskeyRecord, user: UserRecord, rpID: String) -> AuthenticationMethod {
        var method = AuthenticationMethod(passkey)
        method.userHandle = Base64URL.encode(user.userHandle)
        method.identityUserID = ManagedUser.bareID(user.id)
        method.relyingPartyID = rpID
        method.publicKey = Base64.encodePadded(passkey.publicKey)
        method.usage = ["primary"]
        return method
    }

    private init(_ passkey: PasskeyRecord) {
        id = passkey.id
        type = .passkey
        name = passkey.name
        createdAt = APITimestamp.string(passkey.createdAt)
        lastAuthAt = passkey.lastUsedAt.map(APITimestamp.string)
        keyID = Base64URL.encode(passkey.credentialID)
        aaguid = AAGUIDRegistry.format(passkey.aaguid)
        credentialDeviceType = passkey.backupEligible ? "multi_device" : "single_device"
        credentialBackedUp = passkey.backupState
        transports = passkey.transports
    }
}
