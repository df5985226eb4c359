/// The members of the public endpoints' request bodies, each declared once. The server's body
/// tables and the token grants' parameter tables are assembled from these, and the SDK writes
/// its bodies with them (`WireBody`), so a name or a limit cannot differ between the two.
/// A body gives a member its own flags (`.required`, `.nullable`, `.requiredByService`).

/// A public endpoint's client: `client_id`, and a confidential client's secret.
public enum ClientFields {
    public static let clientID = WireField("client_id", .text(128))
    public static let clientSecret = WireField("client_secret", .text(256))
}

/// `POST /oauth/token` and `POST /oauth/revoke`.
public enum TokenFields {
    /// Its values are the grant types; the server's document lists them.
    public static let grantType = WireField("grant_type", .text(256))
    /// RFC 6749's scope: tokens of printable ASCII but `"` and `\`, separated by spaces.
    public static let scopePattern = "^[ ]*[!#-\\[\\]-~]+(?:[ ]+[!#-\\[\\]-~]+)*[ ]*$"
    public static let scope = WireField("scope", .string(maxLength: 2_048, pattern: scopePattern))
    public static let audience = WireField("audience", .text(512))
    /// The connection, by name.
    public static let realm = WireField("realm", .text(128))
    public static let redirectURI = WireField("redirect_uri", .text(2_048))
    /// A challenge's handle (the passkey and device-key grants).
    public static let authSession = WireField("auth_session", .text(256))
    /// The WebAuthn credential: an object, or (in a form) its JSON text.
    public static let authnResponse = WireField("authn_response", .component("PublicKeyCredential"))
    public static let refreshToken = WireField("refresh_token", .text(512))
    public static let username = WireField("username", .text(320))
    public static let password = WireField("password", .text(4_096))
    public static let mfaToken = WireField("mfa_token", .text(8_192))
    public static let otp = WireField("otp", .text(64))
    public static let oobCode = WireField("oob_code", .text(256))
    public static let bindingCode = WireField("binding_code", .text(64))
    public static let recoveryCode = WireField("recovery_code", .text(64))
    public static let keyID = WireField("key_id", .text(64))
    public static let signature = WireField("signature", .text(200))
    public static let osVersion = WireField("os_version", .text(32))
    public static let subjectToken = WireField("subject_token", .text(16_384))
    public static let subjectTokenType = WireField("subject_token_type", .text(256))
    public static let nonce = WireField("nonce", .text(512))
    /// Auth0's Apple name on a first consent, as JSON text. Sesame reads no profile at the token
    /// exchange (the account exists before its Apple ID is linked), so the member is ignored.
    public static let userProfile = WireField("user_profile", .text(4_096))
    public static let code = WireField("code", .text(256))
    public static let codeVerifier = WireField("code_verifier", .text(256))
    /// RFC 7009's token to revoke, and its hint.
    public static let token = WireField("token", .text(512))
    public static let tokenTypeHint = WireField("token_type_hint", .text(64))
}

/// A signup's profile (`POST /passkey/register`'s `user_profile`, `POST /dbconnections/signup`,
/// the Management API's user): the three identifiers, then every `ProfileAttribute`.
public enum SignupFields {
    public static let email = WireField(
        "email", .string(maxLength: 254, format: "email"),
        description: "An email address (compared lower-cased, in NFC).")
    public static let phoneNumber = WireField(
        "phone_number", .string(maxLength: 16, pattern: "^\\+[1-9][0-9]{1,14}$"), description: "E.164.")
    public static let username = WireField(
        "username", .string(maxLength: 128, pattern: "^[A-Za-z0-9_.+@-]{1,128}$"),
        description: "1 to 128 letters (any script; the pattern shows the ASCII ones), digits and _ . - + @.")
    /// The passkey signup's profile object.
    public static let userProfile = WireField("user_profile", .object(WireObject(profile(nullable: true))))
    /// At most ten strings of at most 500 characters, named by keys of 1 to 100 characters with
    /// nothing unsafe.
    public static let userMetadata = WireField(
        "user_metadata", .map(.characters(500), maxMembers: 10, keys: metadataKey))
    public static let metadataKey = WireType.displayText(100)
    /// The database signup's password and connection.
    public static let password = WireField("password", .text(4_096))
    public static let connection = WireField("connection", .text(128))

    /// The identifiers and every attribute, `null` accepted where `nullable` (as absent on the
    /// public endpoints, as "remove" in a PATCH).
    public static func profile(nullable: Bool) -> [WireField] {
        [email, phoneNumber, username].map { nullable ? $0.nullable : $0 }
            + ProfileAttribute.allCases.map { nullable ? $0.field.nullable : $0.field }
    }
}

/// Auth0's MFA API: `POST /mfa/challenge` and `POST /mfa/associate`.
public enum MFAFields {
    /// The types the app can answer, space-separated.
    public static let challengeType = WireField(
        "challenge_type", .string(maxLength: 64, pattern: "^ *(?:otp|oob)(?: +(?:otp|oob))* *$"),
        description: "otp, oob, or both, separated by spaces.")
    public static let authenticatorID = WireField("authenticator_id", .text(128))
    /// Auth0's list, which names exactly one type here.
    public static let authenticatorTypes = WireField(
        "authenticator_types", .array(.oneOf(["otp", "oob"]), maxItems: 1, minItems: 1),
        description: "Exactly one type.")
    public static let oobChannels = WireField("oob_channels", .array(.oneOf(["sms"]), maxItems: 4))
    public static let phoneNumber = WireField("phone_number", .string(maxLength: 16, pattern: "^\\+[1-9][0-9]{1,14}$"))
    public static let email = WireField("email", .text(4_096))
    /// The challenge's login in progress (the token grant's `mfa_token` has a larger limit).
    public static let mfaToken = WireField("mfa_token", .text(256))
}

/// My Account's passkeys (`/me/v1/authentication-methods`).
public enum MyAccountFields {
    public static let type = WireField("type", .oneOf(["passkey"]))
    public static let connection = WireField("connection", .text(128))
    public static let identityUserID = WireField("identity_user_id", .text(256))
    public static let name = WireField("name", .characters(100))
}

/// Account security upgrades (`/me/v1/upgrades/…`).
public enum UpgradeFields {
    /// What the upgrade is; the server's document lists the types.
    public static let type = WireField("type", .text(64))
    public static let clientSecret = WireField("client_secret", .text(512))
    public static let upgradeToken = WireField("upgrade_token", .text(256))
    public static let newPassword = WireField("new_password", .text(4_096))
    public static let identityToken = WireField("identity_token", .text(16_384))
    public static let authorizationCode = WireField("authorization_code", .text(1_024))
}
