import Foundation
import SesameService

/// A controller of `/me/v1` (docs/management-api.md): each route checks the user's bearer token and
/// its scope first. Errors are RFC 9457 problems, as Auth0's My Account API writes them.
protocol MyAccountRouting {
    var myAccount: MyAccountService { get }
}

extension MyAccountRouting {
    /// The signed-in user behind a My Account request, if its token carries `scope`.
    func accountCaller(_ context: PrincipalContext, _ scope: MyAccountScope) throws -> AccountCaller {
        try myAccount.authorize(context.principal, tenant: context.tenant, scope: scope)
    }
}
