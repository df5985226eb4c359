/// The free-text attributes of a profile beside its identifiers: OpenID Connect's standard claims
/// of the `profile` scope. Each is declared once, here: its name (the same in request bodies, the
/// Management API's user and the claims) and its form; SesameStore gives each its place in
/// `UserProfile`. Signup and Management API bodies, validation, the pending signup, the users the
/// API returns, the id token and userinfo, and discovery's `claims_supported` all go through this
/// list (docs/ARCHITECTURE.md, "Adding a profile field"). A new attribute is appended: a pending
/// signup stores them in this order.
public enum ProfileAttribute: String, CaseIterable, Sendable {
    case name
    case givenName = "given_name"
    case familyName = "family_name"
    case nickname
    case picture
    case middleName = "middle_name"

    /// What a value must be: text of at most 300 characters, or an http(s) URL.
    public enum Form: Sendable {
        case text
        case url
    }

    public var form: Form {
        switch self {
        case .picture: .url
        case .name, .givenName, .familyName, .nickname, .middleName: .text
        }
    }

    /// The most characters of a text attribute.
    public static let maxTextLength = 300
    /// The most bytes of a URL attribute.
    public static let maxURLBytes = 2_048

    /// The attribute as a request body's member: text of 1 to 300 characters with nothing unsafe,
    /// or a URL (whose scheme, http or https, the service checks).
    public var field: WireField {
        switch form {
        case .text: WireField(rawValue, .displayText(Self.maxTextLength))
        case .url: WireField(rawValue, .string(maxLength: Self.maxURLBytes, format: "uri"))
        }
    }
}
