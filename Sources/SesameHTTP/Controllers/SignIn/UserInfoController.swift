import Foundation
import SesameService

/// `/userinfo` (OIDC Core §5.3), GET or POST, for the principal of a userinfo-audience token.
struct UserInfoController: Sendable {
    let tokens: TokenService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/userinfo", handler: claims)
        group.post("/userinfo", handler: claims)
    }

    func claims(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        try .noStoreJSON(tokens.userInfo(tenant: context.tenant, principal: context.principal))
    }
}
