import Foundation
import SesameService
import SesameStore

/// `GET /password-rules?client_id=…[&connection=…]`: the connection's rules string, unchanged,
/// for a sign-up form's `passwordrules` attribute or iOS's `UITextInputPasswordRules`.
struct PasswordRulesController: Sendable {
    let passwords: PasswordService

    func register(to group: inout RouteGroup<TenantContext>) {
        group.get(
            "/password-rules", query: RequestQuery([RequestQuery.clientID, RequestQuery.connection]), handler: rules)
    }

    func rules(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let rules = try passwords.rules(
            tenant: context.tenant, clientID: request.query(RequestQuery.clientID),
            connection: request.query(RequestQuery.connection))
        return try .noStoreJSON(["rules": rules])
    }
}
