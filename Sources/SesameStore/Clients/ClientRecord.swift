import Foundation

/// iOS app settings of a client: produce apple-app-site-association and the `https://<rpId>` origin.
public struct IOSAppSettings: Sendable, Hashable, Codable {
    public var teamID: String
    public var bundleIdentifier: String
    public init(teamID: String, bundleIdentifier: String) {
        self.teamID = teamID
        self.bundleIdentifier = bundleIdentifier
    }
}

/// Android app settings of a client: produce assetlinks.json and `android:apk-key-hash:` origins.
public struct AndroidAppSettings: Sendable, Hashable, Codable {
    public var packageName: String
    /// SHA-256 signing-certificate fingerprints, "AB:CD:…" (32 bytes, colon-separated hex).
    public var sha256CertFingerprints: [String]
    public init(packageName: String, sha256CertFingerprints: [String]) {
        self.packageName = packageName
        self.sha256CertFingerprints = sha256CertFingerprints
    }
}

/// A client's access to an API (Auth0's client grant): which audience, which scopes.
public struct ClientGrantSettings: Sendable, Hashable, Codable {
    public var audience: String
    public var scopes: [String]
    public init(audience: String, scopes: [String]) {
        self.audience = audience
        self.scopes = scopes
    }
}

/// An application.
///
/// Version 2 stores the closed vocabularies as enums (`ClientRecordUpgrade` turns a version-1 row
/// into one); a row from a newer Sesame, or with a value that is not a case, does not decode.
public struct ClientRecord: Sendable, Hashable, Codable, VersionedRecord {
    /// Version 3 added `allowedLogoutURLs`.
    public static let currentVersion = 3
    public var version = ClientRecord.currentVersion
    public var tenantID: String
    /// The public client_id.
    public var id: String
    public var name: String
    public var appType: ClientAppType
    public var grantTypes: [OAuthGrantType]
    public var callbacks: [String]
    /// Where `/oidc/logout` may send the browser afterwards (Auth0's `allowed_logout_urls`).
    public var allowedLogoutURLs: [String]
    public var allowedOrigins: [String]
    public var isFirstParty: Bool
    public var tokenEndpointAuthMethod: TokenEndpointAuthMethod
    /// SHA-256 of the client secret; nil for public clients.
    @OptionalBase64Bytes public var secretHash: [UInt8]?
    /// JWT signing algorithm for this client's tokens.
    public var jwtAlgorithm: JWTAlgorithm
    public var ios: IOSAppSettings?
    public var android: AndroidAppSettings?
    /// APIs this client may call with client_credentials.
    public var grants: [ClientGrantSettings]
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        tenantID: String, id: String, name: String, appType: ClientAppType, grantTypes: [OAuthGrantType],
        callbacks: [String] = [], allowedOrigins: [String] = [], isFirstParty: Bool = true,
        tokenEndpointAuthMethod: TokenEndpointAuthMethod = .none, secretHash: [UInt8]? = nil,
        jwtAlgorithm: JWTAlgorithm = .rs256, ios: IOSAppSettings? = nil, android: AndroidAppSettings? = nil,
        grants: [ClientGrantSettings] = [], allowedLogoutURLs: [String] = [], createdAt: Date, updatedAt: Date
    ) {
        self.tenantID = tenantID
        self.id = id
        self.name = name
        self.appType = appType
        self.grantTypes = grantTypes
        self.callbacks = callbacks
        self.allowedLogoutURLs = allowedLogoutURLs
        self.allowedOrigins = allowedOrigins
        self.isFirstParty = isFirstParty
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.secretHash = secretHash
        self.jwtAlgorithm = jwtAlgorithm
        self.ios = ios
        self.android = android
        self.grants = grants
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case version, tenantID, id, name, appType, grantTypes, callbacks, allowedOrigins, isFirstParty
        case tokenEndpointAuthMethod, secretHash, jwtAlgorithm, ios, android, grants, createdAt, updatedAt
        case allowedLogoutURLs
    }

    /// Reads the row's `version` first: version 1 keeps its vocabulary as strings and is upgraded by
    /// `ClientRecordUpgrade.fromVersion1`; version 2 is read as it is; anything newer is refused.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let stored = try c.decodeIfPresent(Int.self, forKey: .version) ?? 1
        guard (1...Self.currentVersion).contains(stored) else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: c,
                debugDescription: "version \(stored) is newer than this Sesame reads (\(Self.currentVersion))")
        }
        tenantID = try c.decode(String.self, forKey: .tenantID)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        callbacks = try c.decode([String].self, forKey: .callbacks)
        allowedLogoutURLs = try c.decodeIfPresent([String].self, forKey: .allowedLogoutURLs) ?? []
        allowedOrigins = try c.decode([String].self, forKey: .allowedOrigins)
        isFirstParty = try c.decode(Bool.self, forKey: .isFirstParty)
        _secretHash = try c.decode(OptionalBase64Bytes.self, forKey: .secretHash)
        ios = try c.decodeIfPresent(IOSAppSettings.self, forKey: .ios)
        android = try c.decodeIfPresent(AndroidAppSettings.self, forKey: .android)
        grants = try c.decode([ClientGrantSettings].self, forKey: .grants)
        createdAt = try c.decode(Date.self, forKey: .createdAt)
        updatedAt = try c.decode(Date.self, forKey: .updatedAt)
        version = Self.currentVersion
        if stored == 1 {
            let upgraded = try ClientRecordUpgrade.fromVersion1(
                ClientRecordUpgrade.Version1Vocabulary(
                    appType: try c.decode(String.self, forKey: .appType),
                    grantTypes: try c.decode([String].self, forKey: .grantTypes),
                    tokenEndpointAuthMethod: try c.decode(String.self, forKey: .tokenEndpointAuthMethod),
                    jwtAlgorithm: try c.decode(String.self, forKey: .jwtAlgorithm)))
            (appType, grantTypes, tokenEndpointAuthMethod, jwtAlgorithm) = (
                upgraded.appType, upgraded.grantTypes, upgraded.tokenEndpointAuthMethod, upgraded.jwtAlgorithm
            )
        } else {
            appType = try c.decode(ClientAppType.self, forKey: .appType)
            grantTypes = try c.decode([OAuthGrantType].self, forKey: .grantTypes)
            tokenEndpointAuthMethod = try c.decode(TokenEndpointAuthMethod.self, forKey: .tokenEndpointAuthMethod)
            jwtAlgorithm = try c.decode(JWTAlgorithm.self, forKey: .jwtAlgorithm)
        }
    }
}

/// Conversions of stored clients between versions: plain functions, tested on stored rows.
public enum ClientRecordUpgrade {
    /// What a version-1 client held as strings.
    public struct Version1Vocabulary: Sendable, Hashable {
        public var appType: String
        public var grantTypes: [String]
        public var tokenEndpointAuthMethod: String
        public var jwtAlgorithm: String
        public init(appType: String, grantTypes: [String], tokenEndpointAuthMethod: String, jwtAlgorithm: String) {
            self.appType = appType
            self.grantTypes = grantTypes
            self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
            self.jwtAlgorithm = jwtAlgorithm
        }
    }

    /// The typed vocabulary of version 2.
    public struct Version2Vocabulary: Sendable, Hashable {
        public var appType: ClientAppType
        public var grantTypes: [OAuthGrantType]
        public var tokenEndpointAuthMethod: TokenEndpointAuthMethod
        public var jwtAlgorithm: JWTAlgorithm
    }

    /// Version 1 → 2: each string must be a case (an unknown one is an error, never a default).
    /// `authorization_code`, which version 1 gave every interactive client although no endpoint
    /// served it, is dropped.
    public static func fromVersion1(_ v1: Version1Vocabulary) throws -> Version2Vocabulary {
        func parse<T: RawRepresentable>(_ value: String, _ field: String) throws -> T where T.RawValue == String {
            guard let parsed = T(rawValue: value) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: [], debugDescription: "\(field) has the unknown value \"\(value.prefix(64))\""))
            }
            return parsed
        }
        return Version2Vocabulary(
            appType: try parse(v1.appType, "appType"),
            grantTypes: try v1.grantTypes.filter { $0 != "authorization_code" }.map { try parse($0, "grantTypes") },
            tokenEndpointAuthMethod: try parse(v1.tokenEndpointAuthMethod, "tokenEndpointAuthMethod"),
            jwtAlgorithm: try parse(v1.jwtAlgorithm, "jwtAlgorithm"))
    }
}

// MARK: The binary form

extension ClientRecord: BinaryCodedRecord {
    /// The binary form began with version 2 (the typed vocabulary). 3: the logout URLs.
    public static let recordFields = RecordFields<ClientRecord>(
        blank: ClientRecord(
            tenantID: "", id: "", name: "", appType: .spa, grantTypes: [], createdAt: .distantPast,
            updatedAt: .distantPast),
        oldestVersion: 2,
        [
            .field("tenantID", \.tenantID),
            .field("id", \.id),
            .field("name", \.name),
            .field("appType", \.appType),
            .field("grantTypes", \.grantTypes),
            .field("callbacks", \.callbacks),
            .field("allowedOrigins", \.allowedOrigins),
            .field("isFirstParty", \.isFirstParty),
            .field("tokenEndpointAuthMethod", \.tokenEndpointAuthMethod),
            .field("secretHash", \._secretHash.wrappedValue),
            .field("jwtAlgorithm", \.jwtAlgorithm),
            .field("ios", \.ios),
            .field("android", \.android),
            .field("grants", \.grants),
            .field("createdAt", \.createdAt),
            .field("updatedAt", \.updatedAt),
            .field("allowedLogoutURLs", \.allowedLogoutURLs, since: 3),
        ])
}

extension IOSAppSettings: RecordTabled {
    public static let recordFields = RecordFields<IOSAppSettings>(
        blank: IOSAppSettings(teamID: "", bundleIdentifier: ""),
        [.field("teamID", \.teamID), .field("bundleIdentifier", \.bundleIdentifier)])
}

extension AndroidAppSettings: RecordTabled {
    public static let recordFields = RecordFields<AndroidAppSettings>(
        blank: AndroidAppSettings(packageName: "", sha256CertFingerprints: []),
        [.field("packageName", \.packageName), .field("sha256CertFingerprints", \.sha256CertFingerprints)])
}

extension ClientGrantSettings: RecordTabled {
    public static let recordFields = RecordFields<ClientGrantSettings>(
        blank: ClientGrantSettings(audience: "", scopes: []),
        [.field("audience", \.audience), .field("scopes", \.scopes)])
}
