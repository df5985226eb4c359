import SesameService
import SesameStore

/// The five routes of a Management API collection at `path` and `path/{id}`: list, create, read,
/// update and delete, each behind its own scope and each one service call. A controller says
/// what differs (the scopes, the body tables, how a body becomes the service's input, the calls)
/// and registers it; routes of its own go beside it.
struct ManagementCollection<Input, Item: Encodable & Sendable>: Sendable {
    struct Scopes: Sendable {
        let read: ManagementScope
        let create: ManagementScope
        let update: ManagementScope
        let delete: ManagementScope
    }

    typealias Caller = ManagementCaller

    let path: String
    let scopes: Scopes
    /// The bodies of `POST path` and `PATCH path/{id}`.
    let creation: RequestBody
    let change: RequestBody
    /// The service's input from a body; `creating` for `POST`.
    let input: @Sendable (_ body: APIBody, _ creating: Bool) throws -> Input
    let list: @Sendable (Caller, ListRequest) throws(ServiceError) -> ManagedList<Item>
    let create: @Sendable (Caller, Input) throws(ServiceError) -> Item
    let read: @Sendable (Caller, String) throws(ServiceError) -> Item
    let update: @Sendable (Caller, String, Input) throws(ServiceError) -> Item
    let delete: @Sendable (Caller, String) throws(ServiceError) -> Void

    func register(to group: inout RouteGroup<PrincipalContext>, management: ManagementService) {
        @Sendable func caller(_ context: PrincipalContext, _ scope: ManagementScope) throws -> Caller {
            try management.authorize(context.principal, tenant: context.tenant, scope: scope)
        }
        let item = path + "/{id}"
        group.get(path, query: .list) { request, context in
            let caller = try caller(context, scopes.read)
            return try .noStoreJSON(list(caller, try RequestInput.listRequest(request)))
        }
        group.post(path, body: creation) { _, reader, context in
            let caller = try caller(context, scopes.create)
            let input = try input(try reader.read(), true)
            return try .noStoreJSON(create(caller, input), status: 201)
        }
        group.get(item) { _, context in
            let caller = try caller(context, scopes.read)
            return try .noStoreJSON(read(caller, try context.pathParameter("id")))
        }
        group.patch(item, body: change) { _, reader, context in
            let caller = try caller(context, scopes.update)
            let input = try input(try reader.read(), false)
            return try .noStoreJSON(update(caller, try context.pathParameter("id"), input))
        }
        group.delete(item) { _, context in
            let caller = try caller(context, scopes.delete)
            try delete(caller, try context.pathParameter("id"))
            return .empty()
        }
    }
}
