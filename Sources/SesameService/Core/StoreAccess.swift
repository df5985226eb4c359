import SesameStore

/// Store calls in service terms: a `ServiceError` thrown inside passes through, a `StoreError`
/// becomes its service equivalent, anything else is unavailability (nothing was written).
struct StoreAccess: Sendable {
    let store: any SesameStore

    func read<T>(_ body: (any StoreTransaction) throws -> T) throws(ServiceError) -> T {
        do {
            return try store.read(body)
        } catch {
            throw StoreAccess.map(error)
        }
    }

    func write<T>(_ durability: Durability, _ body: (any StoreTransaction) throws -> T) throws(ServiceError) -> T {
        do {
            return try store.write(durability, body)
        } catch {
            throw StoreAccess.map(error)
        }
    }

    static func map(_ error: any Error) -> ServiceError {
        if let service = error as? ServiceError { return service }
        if let store = error as? StoreError { return ServiceError.from(store) }
        return .unavailable("the store failed; nothing was written")
    }
}
