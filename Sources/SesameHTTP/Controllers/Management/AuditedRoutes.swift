import Foundation
import SesameService
import SesameStore

extension RouteGroup where Context == PrincipalContext {
    /// Records every Management API write (POST, PUT, PATCH, DELETE) in the audit log with the
    /// acting client and the answer's status, through `management.recordOperation`.
    func audited(_ management: ManagementService) -> RouteGroup<PrincipalContext> {
        wrapped { request, context, next in
            guard let method = AuditRequestMethod(rawValue: request.method.rawValue) else {
                return try next(request, context)
            }
            do {
                let response = try next(request, context)
                management.recordOperation(
                    tenant: context.tenant, principal: context.principal, method: method, path: request.path,
                    status: response.status)
                return response
            } catch {
                let status =
                    (error as? any HTTPErrorConvertible)?.httpError.status ?? (error as? HTTPError)?.status ?? 500
                management.recordOperation(
                    tenant: context.tenant, principal: context.principal, method: method, path: request.path,
                    status: status)
                throw error
            }
        }
    }
}
