import Foundation
import SesameService
import SesameStore

/// The admin pages' users (`/admin/users`, `/admin/users/{id}`): the Management API's user search,
/// user, authentication methods, device keys and user logs, with an admin's session as the caller.
struct AdminUsersController: Sendable {
    let management: ManagementService
    let browser: BrowserSession

    func register(to group: inout RouteGroup<HostedContext>) {
        group.get("/admin/users", query: Self.listQuery, handler: users)
        group.get("/admin/users/{id}", query: RequestQuery([RequestQuery.done]), handler: user)
        group.post("/admin/users/{id}/factors/reset", body: HostedForms.button, handler: resetFactors)
    }

    func users(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        guard let session = browser.currentSession(context) else {
            return try browser.accountSignIn("/admin/users", context)
        }
        let caller = try management.adminCaller(session: session, tenant: context.tenant)
        let query = request.query(UsersController.terms) ?? ""
        do {
            let page = try Self.adminUsersPage(request)
            let found = try management.listUsers(
                caller, query: query, ListRequest(page: page, perPage: Self.adminUsersPerPage))
            let full = found.items.count == Self.adminUsersPerPage
            let more = try full && adminUsersFollow(page: page, query: query, caller: caller)
            let list = AdminPages.UserList(
                query: query.trimmingCharacters(in: .whitespaces), page: page, users: found.items, more: more)
            return PageLayout.response(
                AdminPages.users(context: context, list: list), context: context, locale: context.locale)
        } catch let error as ServiceError where BrowserSession.status(error) == 400 {
            // A refused search is the form again with the reason; what was typed is not echoed.
            let list = AdminPages.UserList(query: "", page: 0, users: [], more: false)
            return PageLayout.response(
                AdminPages.users(context: context, list: list, error: error, status: 400), context: context,
                locale: context.locale)
        }
    }

    func user(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        guard let session = browser.currentSession(context) else {
            return try browser.accountSignIn("/admin/users", context)
        }
        let caller = try management.adminCaller(session: session, tenant: context.tenant)
        var view = try adminUser(caller, id: try context.request.pathParameter("id"))
        view.factorsReset = request.query(RequestQuery.done) == "factors-reset"
        return PageLayout.response(
            AdminPages.user(context: context, view: view), context: context, locale: context.locale)
    }

    /// The support path for a user who lost every second factor (the Management API removes
    /// them one by one: DELETE /api/v2/users/{id}/authentication-methods/{method_id}).
    func resetFactors(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (_, session) = try browser.accountForm(reader, context)
        let caller = try management.adminCaller(session: session, tenant: context.tenant)
        let id = try context.request.pathParameter("id")
        try management.resetSecondFactors(caller, userID: id)
        return .redirect(to: "/admin/users/" + PathSegment.encode(id) + "?done=factors-reset", status: 303)
    }

    /// The search and the page of the list's URL.
    static let listQuery = RequestQuery([UsersController.terms, RequestQuery.page])

    /// The `page` of the list's URL: absent is the first; anything but a number is 400.
    static func adminUsersPage(_ request: HTTPRequest) throws(ServiceError) -> Int {
        guard let text = request.query(RequestQuery.page), !text.isEmpty else { return 0 }
        guard text.utf8.count <= 6, let page = Int(text), page >= 0 else {
            throw .invalidRequest("page must be an integer from 0 to 100000")
        }
        return page
    }

    /// Users on one page of `/admin/users`.
    static let adminUsersPerPage = 25
    /// Audit-log entries on a user's page.
    static let adminUserLogCount = 20

    /// Whether the page after `page` has a user: its first one, read alone (a full page may be the
    /// last, and counting every match to know would read them all).
    func adminUsersFollow(page: Int, query: String, caller: ManagementCaller) throws -> Bool {
        let offset = (page + 1) * Self.adminUsersPerPage
        guard offset <= 100_000 else { return false }
        return !(try management.listUsers(caller, query: query, ListRequest(page: offset, perPage: 1)).items.isEmpty)
    }

    /// A user's page: 404 (the service's) for an id the admin's tenant has no user with.
    func adminUser(_ caller: ManagementCaller, id: String) throws -> AdminPages.UserView {
        let user = try management.user(caller, id: id)
        return AdminPages.UserView(
            user: user, methods: try management.authenticationMethods(caller, userID: user.userID),
            authenticators: try management.authenticatorDisplays(caller, userID: user.userID),
            deviceKeys: try management.deviceKeys(caller, userID: user.userID),
            factors: try management.mfaFactors(caller, userID: user.userID),
            logs: try management.userLogs(caller, userID: user.userID, ListRequest(perPage: Self.adminUserLogCount))
                .items)
    }
}
