/// The answer of `POST /mfa/associate` (Auth0's names).
public struct MFAAssociateResponse: Codable, Sendable, Hashable {
    /// `otp` or `oob`.
    public var authenticatorType: String
    /// TOTP: the secret in base32, and the `otpauth://totp/…` URI for a QR code.
    public var secret: String?
    public var barcodeURI: String?
    /// SMS: `sms`, the code's handle, and `prompt` (the user types the code).
    public var oobChannel: String?
    public var oobCode: String?
    public var bindingMethod: String?
    /// On the first enrollment, when recovery codes are on: show it once.
    public var recoveryCodes: [String]?

    enum CodingKeys: String, CodingKey {
        case secret
        case authenticatorType = "authenticator_type"
        case barcodeURI = "barcode_uri"
        case oobChannel = "oob_channel"
        case oobCode = "oob_code"
        case bindingMethod = "binding_method"
        case recoveryCodes = "recovery_codes"
    }

    public init(
        authenticatorType: String, secret: String? = nil, barcodeURI: String? = nil, oobChannel: String? = nil,
        oobCode: String? = nil, bindingMethod: String? = nil, recoveryCodes: [String]? = nil
    ) {
        self.authenticatorType = authenticatorType
        self.secret = secret
        self.barcodeURI = barcodeURI
        self.oobChannel = oobChannel
        self.oobCode = oobCode
        self.bindingMethod = bindingMethod
        self.recoveryCodes = recoveryCodes
    }
}

/// The answer of `POST /mfa/challenge`.
public struct MFAChallengeResponse: Codable, Sendable, Hashable {
    /// `otp` (the app shows the code) or `oob` (a code was sent).
    public var challengeType: String
    public var oobCode: String?
    public var bindingMethod: String?

    enum CodingKeys: String, CodingKey {
        case challengeType = "challenge_type"
        case oobCode = "oob_code"
        case bindingMethod = "binding_method"
    }

    public init(challengeType: String, oobCode: String? = nil, bindingMethod: String? = nil) {
        self.challengeType = challengeType
        self.oobCode = oobCode
        self.bindingMethod = bindingMethod
    }
}

/// An entry of `GET /mfa/authenticators` (`oob_channel` singular, as Auth0 sends it).
public struct MFAAuthenticatorResponse: Codable, Sendable, Hashable {
    /// `totp|dev_…`, `sms|dev_…`, `recovery-code|dev_…`.
    public var id: String
    /// `otp`, `oob` or `recovery-code`.
    public var authenticatorType: String
    public var active: Bool
    public var oobChannel: String?
    /// A masked phone number.
    public var name: String?

    enum CodingKeys: String, CodingKey {
        case id, active, name
        case authenticatorType = "authenticator_type"
        case oobChannel = "oob_channel"
    }

    public init(id: String, authenticatorType: String, active: Bool, oobChannel: String? = nil, name: String? = nil) {
        self.id = id
        self.authenticatorType = authenticatorType
        self.active = active
        self.oobChannel = oobChannel
        self.name = name
    }
}
