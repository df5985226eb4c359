import Foundation
import SesameService
import SesameStore
import SesameWire

/// The admin pages (`/admin`): the first admin's setup through the link `sesame init` printed, the
/// tenant's overview, adoption, and an application's settings (callbacks, origins, the iOS and
/// Android app settings that feed the well-known files). Each change goes through the Management
/// API's service with an admin's session as the caller, so the same checks apply.
struct AdminController: Sendable {
    let management: ManagementService
    let adminAccess: AdminAccess
    let browser: BrowserSession

    func register(to group: inout RouteGroup<HostedContext>) {
        group.get("/admin/setup", query: Self.setupQuery, handler: setup)
        group.post("/admin/setup", body: HostedForms.button, handler: claim)
        group.get("/admin", handler: overview)
        group.post("/admin/switch-account", body: HostedForms.button, handler: switchAccount)
        group.get("/admin/adoption", query: .adoption, handler: adoption)
        group.get("/admin/adoption.csv", query: .adoption, handler: adoptionCSV)
        group.post("/admin/clients", body: HostedForms.clientCreation, handler: createClient)
        group.get("/admin/clients/{id}", query: RequestQuery([RequestQuery.done]), handler: client)
        group.post("/admin/clients/{id}", body: HostedForms.clientChange, handler: updateClient)
    }

    func setup(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        // The token moves into a short-lived cookie, so it is never stored with a pending
        // sign-in and never travels in a later URL.
        let token = request.query(Self.setupToken) ?? context.cookie(.adminSetup)
        guard let token, adminAccess.isSetupToken(token, tenant: context.tenant) else {
            throw ServiceError.invalidRequest("This setup link has expired or was already used.")
        }
        var response: HTTPResponse
        if let session = browser.currentSession(context) {
            response = PageLayout.response(
                AdminPages.setup(context: context, identifier: session.user.profile.primaryIdentifier),
                context: context, locale: context.locale)
        } else {
            response = try browser.accountSignIn("/admin/setup", context)
        }
        if request.query(Self.setupToken) != nil {
            let cookie = SetCookie(
                name: CookieName.adminSetup.name(secure: context.secure), value: token, maxAge: 3_600,
                secure: context.secure)
            response.headers.add(name: "Set-Cookie", value: cookie.header)
        }
        return response
    }

    static let setupToken = WireField(
        "token", .text(256),
        description: "The setup link's token (`sesame admin invite`); the page keeps it in a cookie for the sign-in."
    )
    static let setupQuery = RequestQuery([setupToken])

    func claim(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (_, session) = try browser.accountForm(reader, context)
        try adminAccess.claim(context.cookie(.adminSetup), userID: session.user.id, tenant: context.tenant)
        var response = HTTPResponse.redirect(to: "/admin", status: 303)
        response.headers.add(
            name: "Set-Cookie",
            value: SetCookie.deleting(CookieName.adminSetup.name(secure: context.secure), secure: context.secure)
                .header)
        return response
    }

    func overview(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        guard let session = browser.currentSession(context) else { return try browser.accountSignIn("/admin", context) }
        let caller: ManagementCaller
        do {
            caller = try management.adminCaller(session: session, tenant: context.tenant)
        } catch .insufficientScope {
            // Someone else's account: say whose, and offer the ways to the right one.
            return PageLayout.response(
                AdminPages.notAdmin(context: context, identifier: session.user.profile.primaryIdentifier),
                context: context, locale: context.locale)
        }
        return PageLayout.response(
            AdminPages.overview(context: context, overview: try adminOverview(caller)), context: context,
            locale: context.locale)
    }

    /// Signs this browser out and in again, to come back to `/admin` as another user.
    func switchAccount(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        _ = try browser.accountForm(reader, context)
        return try browser.switchAccount("/admin", context)
    }

    func adoption(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        guard let session = browser.currentSession(context) else {
            return try browser.accountSignIn("/admin/adoption", context)
        }
        let caller = try management.adminCaller(session: session, tenant: context.tenant)
        let query = Self.adoptionQuery(request)
        return PageLayout.response(
            AdminPages.adoption(
                context: context, report: try management.authenticationStats(caller, query), query: query),
            context: context, locale: context.locale)
    }

    func adoptionCSV(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        guard let session = browser.currentSession(context) else {
            return try browser.accountSignIn("/admin/adoption", context)
        }
        let caller = try management.adminCaller(session: session, tenant: context.tenant)
        let report = try management.authenticationStats(caller, Self.adoptionQuery(request))
        return .csv(
            report, filename: "adoption-\(report.days.first?.date ?? "")-\(report.days.last?.date ?? "").csv")
    }

    func createClient(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (form, session) = try browser.accountForm(reader, context)
        let caller = try management.adminCaller(session: session, tenant: context.tenant)
        var input = ClientInput(
            name: try form.optionalString("name"),
            appType: try form.optionalString("app_type"))
        // A web application gets the code flow with a secret; the others the code flow with PKCE.
        let web = input.appType == "regular_web"
        input.grantTypes = ["authorization_code", "refresh_token"]
        input.tokenEndpointAuthMethod = web ? "client_secret_post" : "none"
        let created = try management.createClient(caller, input)
        return PageLayout.response(
            AdminPages.client(context: context, client: created), context: context, locale: context.locale)
    }

    func client(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        guard let session = browser.currentSession(context) else {
            return try browser.accountSignIn("/admin", context)
        }
        let caller = try management.adminCaller(session: session, tenant: context.tenant)
        let client = try management.client(caller, id: try context.request.pathParameter("id"))
        return PageLayout.response(
            AdminPages.client(context: context, client: client, notice: request.query(RequestQuery.done) == "saved"),
            context: context, locale: context.locale)
    }

    func updateClient(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (form, session) = try browser.accountForm(reader, context)
        let caller = try management.adminCaller(session: session, tenant: context.tenant)
        let id = try context.request.pathParameter("id")
        do {
            _ = try management.updateClient(caller, id: id, try Self.adminClientInput(form))
        } catch {
            let client = try management.client(caller, id: id)
            return PageLayout.response(
                AdminPages.client(context: context, client: client, error: error, status: BrowserSession.status(error)),
                context: context, locale: context.locale)
        }
        let path = "/admin/clients/" + PathSegment.encode(id)
        return .redirect(to: path + "?done=saved", status: 303)
    }

    /// The admin client form as a Management API change: every field given, empty text areas
    /// clearing their lists, empty app settings removing them.
    static func adminClientInput(_ form: APIBody) throws -> ClientInput {
        func lines(_ name: String) throws -> [String] {
            (try form.optionalString(name) ?? "").split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        var input = ClientInput(
            name: try form.optionalString("name"), callbacks: try lines("callbacks"),
            allowedOrigins: try lines("allowed_origins"))
        input.allowedLogoutURLs = try lines("allowed_logout_urls")
        var grants: [String] = []
        for index in OAuthGrantType.allCases.indices {
            if let value = try form.optionalString("grant-\(index)", maxLength: 256) { grants.append(value) }
        }
        input.grantTypes = grants
        let team = (try form.optionalString("ios_team_id") ?? "").trimmingCharacters(in: .whitespaces)
        let bundle = (try form.optionalString("ios_bundle_id") ?? "").trimmingCharacters(
            in: .whitespaces)
        input.ios = team.isEmpty && bundle.isEmpty ? .remove : .set(IOSAppInput(teamID: team, bundleIdentifier: bundle))
        let package = (try form.optionalString("android_package") ?? "").trimmingCharacters(
            in: .whitespaces)
        let fingerprints = try lines("android_fingerprints")
        input.android =
            package.isEmpty && fingerprints.isEmpty
            ? .remove : .set(AndroidAppInput(packageName: package, sha256CertFingerprints: fingerprints))
        return input
    }

    /// The statistics query of an admin page's URL (empty fields are absent, as the form sends them).
    static func adoptionQuery(_ request: HTTPRequest) -> AdoptionQuery {
        RequestInput.adoptionQuery(request, emptyIsAbsent: true)
    }

    /// The overview: totals, the newest 50 users with their methods, every client and connection.
    func adminOverview(_ caller: ManagementCaller) throws -> AdminPages.Overview {
        let users = try management.listUsers(caller, query: nil, ListRequest(perPage: 50, includeTotals: true))
        var rows: [(user: ManagedUser, passkeys: Int, password: Bool)] = []
        for user in users.items {
            let methods = try management.authenticationMethods(caller, userID: user.userID)
            rows.append(
                (user, methods.filter { $0.type == .passkey }.count, methods.contains { $0.type == .password }))
        }
        var clients: [ManagedClient] = []
        var page = 0
        while true {
            let batch = try management.listClients(caller, ListRequest(page: page, perPage: 100)).items
            clients += batch.filter { $0.appType.isInteractive }
            if batch.count < 100 || page >= 9 { break }
            page += 1
        }
        let connections = try management.listConnections(caller, ListRequest(perPage: 100)).items
        return AdminPages.Overview(
            userTotal: users.total ?? users.items.count, users: rows, clients: clients, connections: connections)
    }
}
