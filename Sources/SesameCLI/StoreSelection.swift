import Foundation
import SesameService
import SesameStore

/// The store and tenant a command reads directly, without a server: SQLite in `--data DIR`
/// (`SESAME_DATA`, default `./data`) or `--store URI` (`SESAME_STORE`), and `--tenant ID` where
/// the store holds several tenants.
struct StoreSelection {
    static let options = [
        OptionSpec("data", .single, placeholder: "DIR"),
        OptionSpec("store", .single, placeholder: "URI"),
        OptionSpec("tenant", .single, placeholder: "ID"),
    ]

    var location: StoreLocation
    var directory: DataDirectory
    var tenantID: String?

    init(_ parsed: ParsedArguments, _ variables: [String: String]) throws(UsageError) {
        let store = parsed.value("store") ?? variables["SESAME_STORE"].flatMap { $0.isEmpty ? nil : $0 }
        let data = parsed.value("data") ?? variables["SESAME_DATA"].flatMap { $0.isEmpty ? nil : $0 } ?? "./data"
        if let tenant = parsed.value("tenant"), tenant.isEmpty || tenant.utf8.count > 128 {
            throw UsageError("--tenant must be a tenant id")
        }
        location = try StoreLocation.parse(store)
        directory = DataDirectory(path: data)
        tenantID = parsed.value("tenant")
    }

    /// The usage error of a SQLite store that does not exist (nothing is created), or nil.
    var missing: UsageError? {
        guard location == .sqlite, !FileManager.default.fileExists(atPath: directory.databasePath) else { return nil }
        return UsageError("\(directory.databasePath) does not exist (run sesame init first, or give --store)")
    }

    /// Opens the store.
    func open() throws -> any SesameStore { try directory.openStore(location) }

    /// The tenant named by `--tenant`, or the store's only one; a usage error otherwise.
    func tenant(in store: any SesameStore) throws -> TenantRecord {
        let tenants = try store.read { try $0.tenants.all() }
        if let asked = tenantID {
            guard let tenant = tenants.first(where: { $0.id == asked }) else {
                throw UsageError("no tenant \(asked) in this store")
            }
            return tenant
        }
        guard tenants.count == 1, let only = tenants.first else {
            throw UsageError(
                tenants.isEmpty
                    ? "the store holds no tenant (run sesame init first)"
                    : "the store holds \(tenants.count) tenants; name one with --tenant ID")
        }
        return only
    }
}
