import SesameService
import SesameWire

/// What a route reads from its body: the media types it takes and the table of its members.
///
/// A route that declares one (`RouteGroup.post(_:body:handler:)`) gets its body read and checked
/// before its handler runs, and the OpenAPI document's request body for the operation is rendered
/// from the same table (`OpenAPIGenerator`), so what is documented is what is enforced.
struct RequestBody: Sendable, Hashable {
    enum Media: Sendable, Hashable {
        /// `application/json`.
        case json
        /// `application/json` or `application/x-www-form-urlencoded` (the OAuth endpoints).
        case jsonOrForm
        /// `application/x-www-form-urlencoded` (a hosted page's form).
        case form

        /// The media types, as the document lists them.
        var types: [String] {
            switch self {
            case .json: ["application/json"]
            case .jsonOrForm: ["application/json", "application/x-www-form-urlencoded"]
            case .form: ["application/x-www-form-urlencoded"]
            }
        }
    }

    let media: Media
    let schema: WireObject
    /// Whether the reader checks the body against the table. The token and revoke endpoints only
    /// document theirs: each grant reads its own members, and the rest are ignored (RFC 6749 §3.2).
    /// A hosted page's form is read member by member too, each within the table's limit, so its
    /// CSRF token is checked before anything else about the body is refused.
    var isChecked = true
    /// Where the members a body may hold depend on one of them (a connection's `strategy` decides
    /// its `options`): the tables of each form, which the document gives as a `oneOf`. The reader
    /// checks `schema`, their union, and the handler the form the body takes.
    var variants: [WireObject]?
    /// For a body that is a bare JSON array (`PUT /api/v2/guardian/policies`): its type, an
    /// `.array` of strings; `schema` is then unused.
    var arrayRoot: WireType?

    /// A body that is one JSON array of strings.
    static func jsonArray(of element: WireType, maxItems: Int) -> RequestBody {
        RequestBody(media: .json, schema: WireObject([]), arrayRoot: .array(element, maxItems: maxItems))
    }

    /// A hosted page's form (`HostedForms`): open, read member by member with the table's limits.
    static func form(_ fields: [WireField]) -> RequestBody {
        RequestBody(media: .form, schema: WireObject(fields, closed: false), isChecked: false)
    }

    static func json(_ fields: [WireField], description: String? = nil) -> RequestBody {
        RequestBody(media: .json, schema: WireObject(fields, description: description))
    }
}

/// The body of one request and the table its route declared.
struct BodyReader: Sendable {
    let request: HTTPRequest
    let declared: RequestBody

    /// The body read and checked by the table (`APIBody.read`).
    func read() throws -> APIBody { try APIBody.read(request, declared) }

    /// A body declared as a bare array of strings, within its count and each element's length.
    func strings() throws -> [String] {
        guard case .array(let element, let maxItems, _)? = declared.arrayRoot else {
            throw ServiceError.invalidRequest("the body must be a JSON object")
        }
        return try APIBody.jsonStrings(request, maxCount: maxItems, maxLength: element.maxLength ?? 4_096)
    }
}
