import SesameService
import SesameWire

/// What a route reads from its query string: the table of its parameters.
///
/// A `GET` route declares one (`RouteGroup.get(_:query:handler:)`), its handler reads each
/// parameter by the same field (`HTTPRequest.query(_:)`), and the OpenAPI document's query
/// parameters for the operation are rendered from the table (`OpenAPIGenerator`). A parameter's
/// name, type, limit and meaning are written once.
struct RequestQuery: Sendable, Hashable {
    let fields: [WireField]

    init(_ fields: [WireField]) { self.fields = fields }

    static func + (lhs: RequestQuery, rhs: RequestQuery) -> RequestQuery { RequestQuery(lhs.fields + rhs.fields) }

    // MARK: Parameters that several routes share

    /// Auth0's list paging (`RequestInput.listRequest`, `ListRequest`'s bounds).
    static let page = WireField("page", .integer(0...100_000))
    static let perPage = WireField("per_page", .integer(1...100))
    static let includeTotals = WireField("include_totals", .boolean)
    static let list = RequestQuery([page, perPage, includeTotals])

    static let clientID = WireField("client_id", .text(128))
    static let connection = WireField("connection", .text(128))

    /// The adoption report's window and filters (`AdoptionQuery`), on the API and the admin page.
    static let adoptionFrom = WireField("from", .text(64))
    static let adoptionTo = WireField("to", .text(64))
    static let adoption = RequestQuery([adoptionFrom, adoptionTo, clientID, connection])

    /// The device a method-hints request is about (`DeviceDescription`).
    static let platform = WireField(
        "platform", .vocabulary(DevicePlatform.self), description: "The device asking: ios, android or web."
    ).required
    static let osVersion = WireField(
        "os_version", .string(maxLength: 32, pattern: #"^[0-9]{1,5}(\.[0-9]{1,5}){0,3}$"#),
        description: "The OS version, such as 16.4 or 14: required for ios and android.")
    static let webView = WireField("webview", .boolean)
    static let device = RequestQuery([platform, osVersion, webView])

    /// A hosted step's pending sign-in, and an emailed link's ticket.
    static let transaction = RequestQuery([HostedForms.transaction])
    static let ticket = RequestQuery([HostedForms.ticket])
    /// Which notice a page shows after a redirect (`?done=saved`).
    static let done = WireField("done", .text(64))
    /// The version an asset's URL names, so a current one is cached for good.
    static let version = WireField("v", .text(64))
    static let assetVersion = RequestQuery([version])
}

extension HTTPRequest {
    /// The value of `field`'s query parameter (the first, when it is given more than once).
    func query(_ field: WireField) -> String? { query(field.name) }
}
