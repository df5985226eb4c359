import Foundation
import SesameStore
import SesameWire
import WebAuthn

/// One way to get tokens at `POST /oauth/token` (a passkey, a password, a second factor, a device
/// key, Apple, a refresh token, an authorization code, a client's own credentials).
///
/// `TokenService` authenticates the client, checks the client may use the grant type, reads the
/// grant's `Parameters` from the body by their field table, and calls `authenticate`. What the
/// grant answers, a user's sign-in or a client, goes to `TokenIssuer`; the grant never signs a
/// token itself. A new sign-in method is a new conformer in its own folder and one line in
/// `TokenService.grants`.
public protocol TokenGrant: Sendable {
    associatedtype Parameters: GrantParameters
    /// The grant types it answers (the password grant answers RFC 6749's and Auth0's realm form).
    var grantTypes: [OAuthGrantType] { get }
    func authenticate(_ parameters: Parameters, _ context: GrantContext) throws(ServiceError) -> GrantOutcome
}

/// A grant's parameters, read from the request body by one table of fields.
public protocol GrantParameters: Sendable {
    init()
    /// Every body field the grant reads: its name, its limit, and where it goes.
    static var fields: [GrantField<Self>] { get }
}

/// The parameters of a grant that asks for access: `scope` (RFC 6749 §3.3) and `audience` (the
/// API the access token is for).
public protocol ScopedGrantParameters: GrantParameters {
    var scope: String? { get set }
    var audience: String? { get set }
}

extension GrantField where Parameters: ScopedGrantParameters {
    /// `scope` and `audience`, in that order.
    static var scopeAndAudience: [GrantField] {
        [.text(TokenFields.scope, \.scope), .text(TokenFields.audience, \.audience)]
    }
}

extension GrantContext {
    /// The scopes and audience of a user login that asks for `scope` and `audience`, for this
    /// client of this tenant (`TokenIssuer.loginScopes`).
    func loginScopes(_ scope: String?, audience: String?) throws(ServiceError) -> ([String], UserTokenAudience) {
        try issuer.loginScopes(scope, audience: audience, tenant: tenant, client: client)
    }
}

extension TokenGrant {
    /// The grant's body fields as the document gives them: each member's declaration, required
    /// (by the grant, in its own words) where the table says so.
    var documentedFields: [WireField] {
        Parameters.fields.map { $0.isRequired ? $0.member.requiredByService : $0.member }
    }
}

extension GrantParameters {
    /// The parameters `source` holds. A field the table does not name is ignored (RFC 6749 §3.2).
    static func read(from source: any TokenFieldSource) throws(ServiceError) -> Self {
        var parameters = Self()
        for field in fields {
            switch field.kind {
            case .text(let path, let maxLength):
                parameters[keyPath: path] = try source.text(field.name, maxLength: maxLength)
            case .credential(let path):
                parameters[keyPath: path] = try source.credential(field.name)
            }
        }
        return parameters
    }
}

/// One field of a grant's parameters.
public struct GrantField<Parameters>: Sendable {
    enum Kind: Sendable {
        /// A string, absent or null read as nil, at most `maxLength` bytes.
        case text(WritableKeyPath<Parameters, String?> & Sendable, maxLength: Int)
        /// A WebAuthn credential: a JSON object, or a string holding one.
        case credential(WritableKeyPath<Parameters, CredentialJSONInput?> & Sendable)
    }

    /// The member's declaration (SesameWire's `TokenFields`).
    public let member: WireField
    let kind: Kind
    public var name: String { member.name }
    /// Whether every grant type the table serves needs the field (the document says so; the grant
    /// refuses its absence in its own words).
    public private(set) var isRequired = false

    /// The same field, required.
    public var required: GrantField {
        var field = self
        field.isRequired = true
        return field
    }

    /// A string member declared in SesameWire (`TokenFields`), with its name and byte limit.
    public static func text(_ member: WireField, _ path: WritableKeyPath<Parameters, String?> & Sendable)
        -> GrantField
    {
        guard let maxLength = member.type.maxLength else {
            preconditionFailure("\(member.name) is not a string member")
        }
        return GrantField(member: member, kind: .text(path, maxLength: maxLength))
    }

    /// A WebAuthn credential member declared in SesameWire.
    public static func credential(
        _ member: WireField, _ path: WritableKeyPath<Parameters, CredentialJSONInput?> & Sendable
    ) -> GrantField {
        GrantField(member: member, kind: .credential(path))
    }

    /// The most bytes the field may hold (nil for a credential, which its own parser bounds).
    public var maxLength: Int? {
        if case .text(_, let maxLength) = kind { return maxLength }
        return nil
    }
}

/// Where a grant's fields come from: the body as the transport decoded it (JSON or a form).
public protocol TokenFieldSource {
    /// A string field: absent or null → nil; another type, or longer than `maxLength` bytes → 400.
    func text(_ name: String, maxLength: Int) throws(ServiceError) -> String?
    /// A WebAuthn credential field: an object, or a string of JSON; absent or null → nil.
    func credential(_ name: String) throws(ServiceError) -> CredentialJSONInput?
}

/// Fields given by name, for callers in the same process (tests, the CLI). A nil value is absent.
public struct TokenFieldValues: TokenFieldSource, ExpressibleByDictionaryLiteral {
    private var values: [String: String]

    public init(_ values: [String: String?]) { self.values = values.compactMapValues { $0 } }

    public init(dictionaryLiteral elements: (String, String?)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    public func text(_ name: String, maxLength: Int) throws(ServiceError) -> String? {
        guard let value = values[name] else { return nil }
        guard value.utf8.count <= maxLength else { throw .invalidRequest("\(name) is longer than \(maxLength) bytes") }
        return value
    }

    public func credential(_ name: String) throws(ServiceError) -> CredentialJSONInput? {
        values[name].map { .bytes(Array($0.utf8)) }
    }
}

/// A `POST /oauth/token` request after the transport decoded it.
public struct TokenCall {
    public var grantType: String
    public var credentials: ClientCredentials
    public var fields: any TokenFieldSource
    /// The request's DPoP proof, if any (RFC 9449).
    public var dpop: DPoPRequest
    /// The client address key (`IPAddressRange.clientKey`), read only by the password grants'
    /// limits. Both of these are computed when a grant asks, so a passkey sign-in or a refresh
    /// (the hot paths) never pays for the other's.
    public var clientAddress: () -> String?
    /// The platform the client says it runs on (its `Auth0-Client` header), read only by the grant
    /// that counts it (a passkey sign-in: the statistics and the prefer-passkey flag).
    public var clientPlatform: () -> ClientPlatform?

    public init(
        grantType: String, credentials: ClientCredentials, fields: any TokenFieldSource, dpop: DPoPRequest = .none,
        clientAddress: @escaping () -> String? = { nil }, clientPlatform: @escaping () -> ClientPlatform? = { nil }
    ) {
        self.grantType = grantType
        self.credentials = credentials
        self.fields = fields
        self.dpop = dpop
        self.clientAddress = clientAddress
        self.clientPlatform = clientPlatform
    }

    /// A call with fields given by name (`["scope": "openid", …]`), as tests and the CLI make one.
    public init(grantType: String, credentials: ClientCredentials, fields: TokenFieldValues, dpop: DPoPRequest = .none)
    {
        self.init(grantType: grantType, credentials: credentials, fields: fields as any TokenFieldSource, dpop: dpop)
    }
}

/// What a grant works with: the authenticated client, and the request beyond its parameters.
public struct GrantContext {
    public let tenant: TenantRecord
    public let client: ClientRecord
    public let grantType: OAuthGrantType
    /// The request's DPoP proof, checked and recorded against replay.
    public let proof: DPoPProof?
    let call: TokenCall
    let issuer: TokenIssuer
}

/// What a grant decided.
public enum GrantOutcome {
    /// A user signed in (or renewed a sign-in): the tokens `TokenIssuer` makes for them.
    case user(UserGrant)
    /// A client acting for itself (`client_credentials`).
    case client(ClientGrant)
}

/// A user's tokens as a grant asks for them.
public struct UserGrant {
    var user: UserRecord
    var scopes: [String]
    var audience: UserTokenAudience
    /// The sign-in's RFC 8176 methods and time.
    var amr: [String]
    var authTime: Date
    /// Where the refresh token comes from.
    var refresh: TokenIssuer.RefreshIssue
    var nonce: String?
    var sessionID: String?
    var accessClaims: [String: JWTClaimValue] = [:]
    /// A last step once the tokens are signed (a rotation, a code's confirmation, the answer's own
    /// members); a throw here refuses the request and the tokens are never seen.
    var finish: ((inout TokenResponse) throws(ServiceError) -> Void)?
}

/// A client's token for an API it has a grant for.
public struct ClientGrant {
    var client: ClientRecord
    var audience: String
    var scopes: [String]
    var lifetime: Int
    var algorithm: JWTAlgorithm
    /// A last step once the token is signed (the grant's success event).
    var finish: (() -> Void)?
}
