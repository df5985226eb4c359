import Foundation
import SesameService
import SesameStore

/// A controller of `/api/v2` (docs/management-api.md). Each route checks the bearer token's scope
/// before it reads the body, through the same service calls the admin pages make.
protocol ManagementRouting {
    var management: ManagementService { get }
}

extension ManagementRouting {
    /// The authorized caller of a management request.
    func managementCaller(_ context: PrincipalContext, _ scope: ManagementScope) throws -> ManagementCaller {
        try management.authorize(context.principal, tenant: context.tenant, scope: scope)
    }
}
