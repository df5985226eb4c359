import Foundation
import SesameCrypto
import SesameService
import SesameStore
import SesameWire
import WebAuthn

/// What several controllers read from a request the same way: client authentication, list
/// parameters, the signup profile's fields.
enum RequestInput {
    /// The profile fields a signup may carry (the passkey and database signups, the Management
    /// API), declared in SesameWire (`SignupFields.profile`): the three identifiers, then every
    /// `ProfileAttribute`, so a new attribute is in each of those bodies and in the document
    /// without an edit here.
    static func profileFields(nullable: Bool) -> [WireField] { SignupFields.profile(nullable: nullable) }

    /// A public endpoint's client: `client_id`, and `client_secret` for a confidential client (or
    /// HTTP Basic instead). A missing `client_id` is `invalid_client` (401), so the service refuses it.
    static let client: [WireField] = [
        ClientFields.clientID.nullable.requiredByService, ClientFields.clientSecret.nullable,
    ]

    /// The same members where a client is optional (the MFA association, whose caller is its token)
    /// or where the endpoint answers its absence itself (the token and revoke endpoints).
    static let optionalClient: [WireField] = client.map { WireField($0.name, $0.type, nullable: true) }

    /// Auth0's `organization`, which Sesame refuses (`refuseOrganization`).
    static let organization = WireField("organization", .refused("Refused: 400."))

    /// The token defaults a challenge may carry for the token it leads to.
    static let tokenDefaultFields: [WireField] = [
        WireField(
            "scope", .string(maxLength: TokenDefaults.maxBytes, pattern: TokenFields.scopePattern), nullable: true),
        WireField("audience", .text(TokenDefaults.maxBytes), nullable: true),
    ]

    /// `user_metadata` at signup: at most ten strings of at most 500 characters.
    static let metadata = SignupFields.userMetadata

    /// The profile's free-text attributes in `body`: absent is not given, and so is null where
    /// `nullIsAbsent` (the public endpoints, where SDKs send null); elsewhere null is refused.
    static func profileAttributes(_ body: APIBody, nullIsAbsent: Bool = true) throws -> [ProfileAttribute: String] {
        var values: [ProfileAttribute: String] = [:]
        for attribute in ProfileAttribute.allCases {
            values[attribute] =
                nullIsAbsent ? try body.optionalString(attribute.rawValue) : try body.string(attribute.rawValue)
        }
        return values
    }

    /// The changes a `PATCH` body makes to the profile's free-text attributes (null removes one).
    static func profileAttributeChanges(_ body: APIBody) throws -> [ProfileAttribute: FieldChange<String>] {
        var changes: [ProfileAttribute: FieldChange<String>] = [:]
        for attribute in ProfileAttribute.allCases {
            let change = try body.nullableString(attribute.rawValue)
            if case .keep = change { continue }
            changes[attribute] = change
        }
        return changes
    }

    /// The adoption report's window and filters (`RequestQuery.adoption`). A page's form sends its
    /// empty fields, which `emptyIsAbsent` reads as absent; the API refuses what it cannot read.
    static func adoptionQuery(_ request: HTTPRequest, emptyIsAbsent: Bool = false) -> AdoptionQuery {
        func value(_ field: WireField) -> String? {
            let value = request.query(field)
            return emptyIsAbsent && value?.isEmpty == true ? nil : value
        }
        return AdoptionQuery(
            from: value(RequestQuery.adoptionFrom), to: value(RequestQuery.adoptionTo),
            clientID: value(RequestQuery.clientID), connection: value(RequestQuery.connection))
    }

    /// Auth0's list parameters: `page`, `per_page`, `include_totals`.
    static func listRequest(_ request: HTTPRequest) throws -> ListRequest {
        var list = ListRequest()
        if let page = request.query(RequestQuery.page) {
            guard let value = Int(page) else { throw ServiceError.invalidRequest("page must be an integer") }
            list.page = value
        }
        if let perPage = request.query(RequestQuery.perPage) {
            guard let value = Int(perPage) else { throw ServiceError.invalidRequest("per_page must be an integer") }
            list.perPage = value
        }
        if let totals = request.query(RequestQuery.includeTotals) {
            guard totals == "true" || totals == "false" else {
                throw ServiceError.invalidRequest("include_totals must be true or false")
            }
            list.includeTotals = totals == "true"
        }
        return list
    }

    /// The platform an SDK's `Auth0-Client` header names (base64url JSON whose `env` has the OS as
    /// a key, as Auth0.swift, Auth0.Android and Sesame's SDK send it): Apple's systems count as
    /// `ios`, Android as `android`, a browser SDK as `web`; nil when absent or unreadable.
    static func clientPlatform(_ request: HTTPRequest) -> ClientPlatform? {
        // base64url without padding (Auth0.swift, Auth0.Android, Sesame's SDK), or a browser's btoa().
        guard let header = request.headers["Auth0-Client"], header.utf8.count <= 2_048,
            let bytes = (try? Base64URL.decode(header)) ?? Base64.decodeStandard(header),
            let data = Optional(Data(bytes)),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        let env = (object["env"] as? [String: Any]).map { Set($0.keys.map { $0.lowercased() }) } ?? []
        if !env.isDisjoint(with: ["ios", "ipados", "macos", "visionos", "tvos", "watchos", "maccatalyst"]) {
            return .ios
        }
        if env.contains("android") { return .android }
        let name = (object["name"] as? String)?.lowercased() ?? ""
        if name.contains("spa-js") || name.contains("auth0.js") || name.contains("lock") { return .web }
        return nil
    }

    /// The access token of `Authorization: Bearer …` or `Authorization: DPoP …` (schemes are
    /// case-insensitive, RFC 9110 §11.1); nil without the header; 401 for any other scheme.
    static func presentedToken(_ request: HTTPRequest, tenant: TenantRecord) throws -> PresentedToken? {
        guard let authorization = request.headers["Authorization"] else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2 else {
            throw ServiceError.invalidToken("an Authorization: Bearer (or DPoP) access token is required")
        }
        let token = HTTPRequest.trimmingOWS(parts[1])
        switch parts[0].lowercased() {
        case "bearer": return .bearer(token)
        case "dpop": return .dpop(token, dpopRequest(request, tenant: tenant))
        default: throw ServiceError.invalidToken("an Authorization: Bearer (or DPoP) access token is required")
        }
    }

    /// What DPoP needs of a request (RFC 9449 §4.3): its `DPoP` headers, its method, and the URIs
    /// it may have been sent to, the tenant's public URL and the URL as it arrived, each with the path.
    static func dpopRequest(_ request: HTTPRequest, tenant: TenantRecord) -> DPoPRequest {
        let proofs = request.headers.values(for: "DPoP")
        guard !proofs.isEmpty else { return .none }
        var issuer = TokenService.issuer(tenant)
        issuer.removeLast()
        var targets = [issuer + request.path]
        if let host = request.headers["Host"] { targets.append(request.scheme + "://" + host + request.path) }
        return DPoPRequest(proofs: proofs, method: request.method.rawValue, targets: targets)
    }

    /// RFC 6749 §5.2: a client that authenticated with HTTP Basic gets `WWW-Authenticate` on a 401.
    static func answeringBasicChallenge(
        _ request: HTTPRequest, _ body: () throws -> HTTPResponse
    ) throws -> HTTPResponse {
        do {
            return try body()
        } catch let error as ServiceError {
            guard case .invalidClient = error,
                request.headers["Authorization"]?.lowercased().hasPrefix("basic ") == true
            else { throw error }
            var challenge = error.httpError
            challenge.headers.replaceOrAdd(name: "WWW-Authenticate", value: #"Basic realm="sesame""#)
            throw challenge
        }
    }

    /// `scope` and `audience` on a challenge, kept for the token request that follows.
    static func tokenDefaults(_ body: APIBody) throws -> TokenDefaults? {
        try TokenDefaults.make(
            scope: try body.optionalString("scope"), audience: try body.optionalString("audience"))
    }

    /// Organizations do not exist yet: `organization` is refused as Auth0 refuses an unknown one.
    static func refuseOrganization(_ body: APIBody) throws {
        guard body.has("organization") else { return }
        throw ServiceError.invalidRequest("organization is not supported by this tenant")
    }

    /// `client_id`/`client_secret` from the body, or HTTP Basic (RFC 6749 §2.3.1); not both.
    static func clientCredentials(_ body: APIBody, _ request: HTTPRequest) throws -> ClientCredentials {
        let id = try body.optionalString("client_id")
        let secret = try body.optionalString("client_secret")
        guard let authorization = request.headers["Authorization"], authorization.lowercased().hasPrefix("basic ")
        else {
            return ClientCredentials(clientID: id, clientSecret: secret)
        }
        guard secret == nil else {
            throw ServiceError.invalidRequest("use one client authentication method, not Basic and client_secret")
        }
        let encoded = HTTPRequest.trimmingOWS(authorization.dropFirst(6))
        guard let bytes = Base64.decodeStandard(encoded), let text = String(validating: bytes, as: UTF8.self),
            let colon = text.firstIndex(of: ":")
        else {
            throw ServiceError.invalidClient("malformed Basic client authentication")
        }
        let basicID = String(text[..<colon]).removingPercentEncoding ?? ""
        let basicSecret = String(text[text.index(after: colon)...]).removingPercentEncoding ?? ""
        if let id, id != basicID { throw ServiceError.invalidRequest("client_id differs from the Basic credentials") }
        return ClientCredentials(clientID: basicID, clientSecret: basicSecret)
    }
}
