import SesameStore

/// A client as the Management API returns it (Auth0's field names). `client_secret` is present
/// only in the response that created the secret; Sesame keeps just its SHA-256.
public struct ManagedClient: Encodable, Sendable {
    public struct JWTConfiguration: Encodable, Sendable {
        public var alg: JWTAlgorithm
    }

    public struct Mobile: Encodable, Sendable {
        public struct IOS: Encodable, Sendable {
            public var teamID: String
            public var appBundleIdentifier: String
            enum CodingKeys: String, CodingKey {
                case teamID = "team_id"
                case appBundleIdentifier = "app_bundle_identifier"
            }
        }

        public struct Android: Encodable, Sendable {
            public var appPackageName: String
            public var sha256CertFingerprints: [String]
            enum CodingKeys: String, CodingKey {
                case appPackageName = "app_package_name"
                case sha256CertFingerprints = "sha256_cert_fingerprints"
            }
        }

        public var ios: IOS?
        public var android: Android?
    }

    public var clientID: String
    public var name: String
    public var appType: ClientAppType
    public var grantTypes: [OAuthGrantType]
    public var callbacks: [String]
    public var allowedLogoutURLs: [String]
    public var allowedOrigins: [String]
    public var isFirstParty: Bool
    public var tokenEndpointAuthMethod: TokenEndpointAuthMethod
    public var jwtConfiguration: JWTConfiguration
    public var mobile: Mobile?
    /// The new secret, once.
    public var clientSecret: String?
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case name
        case appType = "app_type"
        case grantTypes = "grant_types"
        case callbacks
        case allowedLogoutURLs = "allowed_logout_urls"
        case allowedOrigins = "allowed_origins"
        case isFirstParty = "is_first_party"
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case jwtConfiguration = "jwt_configuration"
        case mobile
        case clientSecret = "client_secret"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    init(_ record: ClientRecord, secret: String? = nil) {
        clientID = record.id
        name = record.name
        appType = record.appType
        grantTypes = record.grantTypes
        callbacks = record.callbacks
        allowedLogoutURLs = record.allowedLogoutURLs
        allowedOrigins = record.allowedOrigins
        isFirstParty = record.isFirstParty
        tokenEndpointAuthMethod = record.tokenEndpointAuthMethod
        jwtConfiguration = JWTConfiguration(alg: record.jwtAlgorithm)
        if record.ios != nil || record.android != nil {
            mobile = Mobile(
                ios: record.ios.map { Mobile.IOS(teamID: $0.teamID, appBundleIdentifier: $0.bundleIdentifier) },
                android: record.android.map {
                    Mobile.Android(appPackageName: $0.packageName, sha256CertFingerprints: $0.sha256CertFingerprints)
                })
        }
        clientSecret = secret
        createdAt = APITimestamp.string(record.createdAt)
        updatedAt = APITimestamp.string(record.updatedAt)
    }
}
