/// A passkey as the My Account API (`/me/v1/authentication-methods`) returns it.
public struct AuthenticationMethodResponse: Codable, Sendable, Hashable {
    /// `passkey|…`.
    public var id: String
    /// "passkey".
    public var type: String
    /// The user-visible name (the provider's name until renamed).
    public var name: String?
    /// ISO 8601 with milliseconds, UTC.
    public var createdAt: String?
    /// ISO 8601 with milliseconds, UTC; absent when never used to sign in.
    public var lastAuthAt: String?
    /// The credential id, base64url.
    public var keyId: String?
    /// The user's WebAuthn user handle, base64url.
    public var userHandle: String?
    /// The authenticator model, 8-4-4-4-12 lowercase hex.
    public var aaguid: String?
    /// `multi_device` (synced) or `single_device`.
    public var credentialDeviceType: String?
    /// Whether the passkey is currently backed up (BS).
    public var credentialBackedUp: Bool?
    /// The transports the authenticator reported.
    public var transports: [String]?
    /// The user's identity id (the user id without its provider prefix).
    public var identityUserId: String?
    /// The RP ID the passkey belongs to.
    public var relyingPartyId: String?
    /// The COSE_Key, standard base64 with padding.
    public var publicKey: String?
    /// `["primary"]` for a method that signs in on its own.
    public var usage: [String]?

    enum CodingKeys: String, CodingKey {
        case id, type, name, aaguid, transports
        case createdAt = "created_at"
        case lastAuthAt = "last_auth_at"
        case keyId = "key_id"
        case userHandle = "user_handle"
        case credentialDeviceType = "credential_device_type"
        case credentialBackedUp = "credential_backed_up"
        case identityUserId = "identity_user_id"
        case relyingPartyId = "relying_party_id"
        case publicKey = "public_key"
        case usage
    }

    /// A method with every member given.
    public init(
        id: String, type: String = "passkey", name: String? = nil, createdAt: String? = nil, lastAuthAt: String? = nil,
        keyId: String? = nil, userHandle: String? = nil, aaguid: String? = nil, credentialDeviceType: String? = nil,
        credentialBackedUp: Bool? = nil, transports: [String]? = nil, identityUserId: String? = nil,
        relyingPartyId: String? = nil, publicKey: String? = nil, usage: [String]? = nil
    ) {
        self.id = id
        self.type = type
        self.name = name
        self.createdAt = createdAt
        self.lastAuthAt = lastAuthAt
        self.keyId = keyId
        self.userHandle = userHandle
        self.aaguid = aaguid
        self.credentialDeviceType = credentialDeviceType
        self.credentialBackedUp = credentialBackedUp
        self.transports = transports
        self.identityUserId = identityUserId
        self.relyingPartyId = relyingPartyId
        self.publicKey = publicKey
        self.usage = usage
    }
}

/// The response of `GET /me/v1/authentication-methods`.
public struct AuthenticationMethodsResponse: Codable, Sendable, Hashable {
    /// Every method of the signed-in user.
    public var authenticationMethods: [AuthenticationMethodResponse]

    enum CodingKeys: String, CodingKey {
        case authenticationMethods = "authentication_methods"
    }

    /// A list response.
    public init(authenticationMethods: [AuthenticationMethodResponse]) {
        self.authenticationMethods = authenticationMethods
    }
}
