import Foundation

/// One permission an API defines (Auth0's resource-server scope).
public struct ResourceServerScope: Sendable, Hashable, Codable {
    /// The scope string, e.g. `read:orders`.
    public var value: String
    /// What it allows, for people.
    public var description: String
    public init(value: String, description: String) {
        self.value = value
        self.description = description
    }
}

/// An app's own backend API (Auth0's resource server): access tokens for it carry its identifier
/// as `aud` and only scopes it defines.
public struct ResourceServerRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = ResourceServerRecord.currentVersion
    public var tenantID: String
    /// `rs_` + 32 hex digits.
    public var id: String
    /// The audience, unique in the tenant (usually the API's URL).
    public var identifier: String
    public var name: String
    public var scopes: [ResourceServerScope]
    /// The JWS algorithm of its access tokens.
    public var signingAlgorithm: JWTAlgorithm
    /// Access token lifetime in seconds.
    public var tokenLifetime: Int
    /// Whether a login for this API may also get a refresh token (`offline_access`).
    public var allowOfflineAccess: Bool
    /// Whether first-party clients skip the consent step (consent pages arrive with hosted pages).
    public var skipConsentForVerifiableFirstPartyClients: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public init(
        tenantID: String, id: String, identifier: String, name: String, scopes: [ResourceServerScope] = [],
        signingAlgorithm: JWTAlgorithm = .rs256, tokenLifetime: Int = 86_400, allowOfflineAccess: Bool = false,
        skipConsentForVerifiableFirstPartyClients: Bool = true, createdAt: Date, updatedAt: Date
    ) {
        self.tenantID = tenantID
        self.id = id
        self.identifier = identifier
        self.name = name
        self.scopes = scopes
        self.signingAlgorithm = signingAlgorithm
        self.tokenLifetime = tokenLifetime
        self.allowOfflineAccess = allowOfflineAccess
        self.skipConsentForVerifiableFirstPartyClients = skipConsentForVerifiableFirstPartyClients
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

extension ResourceServerRecord: BinaryCodedRecord {
    public static let recordFields = RecordFields<ResourceServerRecord>(
        blank: ResourceServerRecord(
            tenantID: "", id: "", identifier: "", name: "", createdAt: .distantPast, updatedAt: .distantPast),
        [
            .field("tenantID", \.tenantID),
            .field("id", \.id),
            .field("identifier", \.identifier),
            .field("name", \.name),
            .field("scopes", \.scopes),
            .field("signingAlgorithm", \.signingAlgorithm),
            .field("tokenLifetime", \.tokenLifetime),
            .field("allowOfflineAccess", \.allowOfflineAccess),
            .field("skipConsentForVerifiableFirstPartyClients", \.skipConsentForVerifiableFirstPartyClients),
            .field("createdAt", \.createdAt),
            .field("updatedAt", \.updatedAt),
        ])
}

extension ResourceServerScope: RecordTabled {
    public static let recordFields = RecordFields<ResourceServerScope>(
        blank: ResourceServerScope(value: "", description: ""),
        [.field("value", \.value), .field("description", \.description)])
}
