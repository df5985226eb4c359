import Foundation
import SesameStore

/// Who a request acts for, established once per request before any handler runs. Only
/// `TokenService.principal` makes one, so holding one means its credential checked out for the
/// tenant and the audience it names. Services take a principal, never a header.
public struct Principal: Sendable {
    /// What the request presented to become this principal.
    public enum Credential: Sendable, Equatable {
        /// An access token (`Authorization: Bearer` or `DPoP`) whose signature, issuer, audience,
        /// lifetime and (for DPoP) proof were verified.
        case accessToken
    }

    /// How the principal was established.
    public let credential: Credential
    /// The tenant that issued the credential.
    public let tenantID: String
    /// The audience the credential was checked for (the API it may call).
    public let audience: String
    /// The token's `sub`: a user id, or `<client id>@clients` for a machine.
    public let subject: String?
    /// The client the credential was issued to (`client_id`, else `azp`).
    public let clientID: String?
    /// The credential's scopes.
    public let scopes: Set<String>
    /// When the user last authenticated (`auth_time`), if the credential says.
    public let authTime: Date?
    /// The device key a device-key re-authentication used (the token's `device_key_id`).
    public let deviceKeyID: String?
    /// How the user signed in (the token's RFC 8176 `amr`); empty when it does not say.
    public let amr: [String]
    /// The refresh-token family the token was issued with, if any.
    public let refreshFamilyID: String?

    init(token: VerifiedJWT, tenantID: String, audience: String) {
        self.credential = .accessToken
        self.tenantID = tenantID
        self.audience = audience
        self.subject = token.subject
        self.clientID = token.string("client_id") ?? token.string("azp")
        self.scopes = Set(token.scopes)
        self.authTime = token.claims["auth_time"]?.intValue.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        self.deviceKeyID = token.string(TokenService.deviceKeyClaim)
        self.amr = token.claims["amr"]?.stringsValue ?? []
        self.refreshFamilyID = token.string(TokenService.refreshFamilyClaim)
    }

    /// True when the principal is a user (not a machine-to-machine client).
    public var isUser: Bool {
        guard let subject else { return false }
        return !subject.hasSuffix("@clients")
    }

    /// 401 `invalid_token` unless this principal was established for `tenant` and `audience`.
    func require(tenant: TenantRecord, audience expected: String) throws(ServiceError) {
        guard tenantID == tenant.id, audience == expected else {
            throw .invalidToken("the access token is not for this API")
        }
    }
}
