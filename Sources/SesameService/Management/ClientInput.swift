/// A client's fields as a create or PATCH request carries them (Auth0's names in comments); nil
/// leaves a field as it is (or takes the default on create). Values are checked by the service.
public struct ClientInput: Sendable {
    /// `name`.
    public var name: String?
    /// `app_type`: native, spa, regular_web or non_interactive.
    public var appType: String?
    /// `grant_types`.
    public var grantTypes: [String]?
    /// `callbacks`.
    public var callbacks: [String]?
    /// `allowed_logout_urls`.
    public var allowedLogoutURLs: [String]?
    /// `allowed_origins`.
    public var allowedOrigins: [String]?
    /// `is_first_party`.
    public var isFirstParty: Bool?
    /// `token_endpoint_auth_method`: none, client_secret_post or client_secret_basic.
    public var tokenEndpointAuthMethod: String?
    /// `jwt_configuration.alg`: RS256, ES256 or EdDSA.
    public var jwtAlgorithm: String?
    /// `mobile.ios` (null removes it; members merge into the existing settings).
    public var ios: FieldChange<IOSAppInput>
    /// `mobile.android` (null removes it; members merge into the existing settings).
    public var android: FieldChange<AndroidAppInput>

    public init(
        name: String? = nil, appType: String? = nil, grantTypes: [String]? = nil, callbacks: [String]? = nil,
        allowedOrigins: [String]? = nil, isFirstParty: Bool? = nil, tokenEndpointAuthMethod: String? = nil,
        jwtAlgorithm: String? = nil, ios: FieldChange<IOSAppInput> = .keep,
        android: FieldChange<AndroidAppInput> = .keep
    ) {
        self.name = name
        self.appType = appType
        self.grantTypes = grantTypes
        self.callbacks = callbacks
        self.allowedOrigins = allowedOrigins
        self.isFirstParty = isFirstParty
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.jwtAlgorithm = jwtAlgorithm
        self.ios = ios
        self.android = android
    }
}

/// `mobile.ios` of a client request.
public struct IOSAppInput: Sendable {
    /// `team_id`: 10 uppercase letters or digits.
    public var teamID: String?
    /// `app_bundle_identifier`.
    public var bundleIdentifier: String?
    public init(teamID: String? = nil, bundleIdentifier: String? = nil) {
        self.teamID = teamID
        self.bundleIdentifier = bundleIdentifier
    }
}

/// `mobile.android` of a client request.
public struct AndroidAppInput: Sendable {
    /// `app_package_name`.
    public var packageName: String?
    /// `sha256_cert_fingerprints`: "AB:CD:…" (32 bytes), stored in uppercase.
    public var sha256CertFingerprints: [String]?
    public init(packageName: String? = nil, sha256CertFingerprints: [String]? = nil) {
        self.packageName = packageName
        self.sha256CertFingerprints = sha256CertFingerprints
    }
}
