import Foundation
import SesameSQLite
import SesameStore

/// `sesame store copy --from DIR --to postgres://…`: moves a SQLite deployment to PostgreSQL.
///
/// Copies the imported FIDO metadata (the BLOB's record and its entries, in one transaction,
/// first), then every tenant with its clients, connections, APIs, signing keys, users, passkeys,
/// device keys, refresh tokens and auth events (pending ceremonies and DPoP proofs are transient
/// and stay behind), then counts each kind in both stores. A target that holds any tenant is
/// refused, and so is one whose metadata the copy would roll back (docs/mds.md). The master key
/// does not move: serve the copy with the same `SESAME_MASTER_KEY` or `DIR/master.key`.
///
/// Exit status: 0 copied and verified, 1 a store failed or the counts differ, 2 bad arguments,
/// 5 the target's metadata BLOB is newer (nothing was copied).
enum StoreCopyCommand {
    static let name = "store copy"
    static let spec = CommandSpec(options: [
        OptionSpec("from", .single, placeholder: "DIR"),
        OptionSpec("to", .single, placeholder: "URI"),
    ])
    /// Records per page and per write transaction (the store's largest page).
    static let batch = 100

    static func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        if let answered = SesameCommandLine.refusingAllBut(
            "copy", of: "store", usage: Usage.store, arguments, environment)
        {
            return answered
        }
        let reading = SesameCommandLine.reading(
            name, Array(arguments.dropFirst()), spec: spec, usage: Usage.store, environment
        ) { (parsed) throws(UsageError) in
            guard let directory = parsed.value("from") else { throw UsageError("--from DIR is required") }
            guard let uri = parsed.value("to") else { throw UsageError("--to postgres://… is required") }
            return (try StoreLocation.parse(uri), directory)
        }
        guard let (target, from) = reading.value else { return reading.status }
        let database = DataDirectory(path: from).databasePath
        guard FileManager.default.fileExists(atPath: database) else {
            return SesameCommandLine.usageError(name, "\(database) does not exist", environment)
        }
        do {
            let source = try SQLiteStore(path: database)
            let destination = try DataDirectory(path: from).openStore(target)
            guard try destination.read({ try $0.tenants.all() }).isEmpty else {
                return SesameCommandLine.usageError(name, "the target store is not empty", environment)
            }
            let metadata = try copyMetadata(from: source, to: destination)
            let copied = try copy(from: source, to: destination)
            let verified = try counts(destination)
            guard verified == copied else {
                environment.writeError(
                    "sesame: store copy: counts differ after the copy: source \(copied.summary), target \(verified.summary)\n"
                )
                return SesameCommandLine.failure
            }
            guard try metadata.matches(destination) else {
                environment.writeError(
                    "sesame: store copy: the target's FIDO metadata differs from the source's after the copy\n")
                return SesameCommandLine.failure
            }
            environment.writeOutput(
                "Copied \(copied.summary), \(metadata.summary); the counts match. Serve it with the same master key.\n")
            return SesameCommandLine.success
        } catch let error as MetadataRollback {
            environment.writeError("sesame: store copy: \(error.description)\n")
            return MetadataCommand.rollback
        } catch {
            environment.writeError("sesame: store copy: \(SesameCommandLine.oneLine(String(describing: error)))\n")
            return SesameCommandLine.failure
        }
    }

    /// How many records of each kind a store holds.
    struct Counts: Equatable {
        var tenants = 0, clients = 0, connections = 0, apis = 0, signingKeys = 0, users = 0, passkeys = 0
        var refreshTokens = 0, authEvents = 0, deviceKeys = 0, linkedIdentities = 0

        var summary: String {
            "\(tenants) tenants, \(clients) clients, \(connections) connections, \(apis) APIs, "
                + "\(signingKeys) signing keys, \(users) users, \(passkeys) passkeys, \(deviceKeys) device keys, "
                + "\(linkedIdentities) linked identities, \(refreshTokens) refresh tokens, "
                + "\(authEvents) auth events"
        }
    }

    /// The source's FIDO metadata as the copy wrote it (nil: the source has none).
    struct MetadataCopy {
        var blob: MetadataBLOBRecord?
        var entries: [AuthenticatorMetadataRecord]

        var summary: String {
            guard let blob else { return "no FIDO metadata" }
            return "FIDO metadata BLOB no. \(blob.serial) with \(entries.count) entries"
        }

        /// Whether `store` now holds exactly this metadata (always, when the source had none).
        func matches(_ store: any SesameStore) throws -> Bool {
            guard let blob else { return true }
            let (stored, storedEntries) = try store.read { tx in
                (try tx.authenticatorMetadata.blob(), try tx.authenticatorMetadata.entries())
            }
            return stored == blob && storedEntries.count == entries.count && Set(storedEntries) == Set(entries)
        }
    }

    /// The copy would replace a newer BLOB with an older one (the rollback `mds import` refuses).
    struct MetadataRollback: Error, CustomStringConvertible {
        let stored: Int
        let offered: Int

        var description: String {
            "the target holds FIDO metadata BLOB no. \(stored), and the source's no. \(offered) is not newer; "
                + "nothing was copied (import the newer BLOB into the source first)"
        }
    }

    /// Replaces the target's FIDO metadata with the source's, BLOB record and entries in one
    /// durable transaction. A target whose BLOB has a greater `no`, or the same `no` from another
    /// file, is refused inside that transaction (as `mds import` refuses a rollback); the same BLOB
    /// is copied again. A source without metadata leaves the target's as it is.
    static func copyMetadata(from source: any SesameStore, to target: any SesameStore) throws -> MetadataCopy {
        let (blob, entries) = try source.read { tx in
            (try tx.authenticatorMetadata.blob(), try tx.authenticatorMetadata.entries())
        }
        guard let blob else { return MetadataCopy(blob: nil, entries: []) }
        try target.write(.durable) { tx in
            if let stored = try tx.authenticatorMetadata.blob(),
                stored.serial > blob.serial || (stored.serial == blob.serial && stored.sha256 != blob.sha256)
            {
                throw MetadataRollback(stored: stored.serial, offered: blob.serial)
            }
            try tx.authenticatorMetadata.replace(blob: blob, entries: entries)
        }
        return MetadataCopy(blob: blob, entries: entries)
    }

    /// Copies tenant by tenant, in batches; returns what the source held.
    static func copy(from source: any SesameStore, to target: any SesameStore) throws -> Counts {
        var counts = Counts()
        for tenant in try source.read({ try $0.tenants.all() }) {
            let id = tenant.id
            try target.write(.durable) { try $0.tenants.insert(tenant) }
            counts.tenants += 1
            /// Copies every page `list` reads, inserting each record with `insert`.
            func copyAll<T>(
                _ list: @escaping (any StoreTransaction, Page) throws -> [T],
                _ insert: @escaping (any StoreTransaction, T) throws -> Void
            ) throws -> Int {
                try pages({ page in try source.read { try list($0, page) } }) { batch in
                    try target.write(.durable) { tx in for record in batch { try insert(tx, record) } }
                }
            }
            counts.clients += try copyAll({ try $0.clients.list(tenantID: id, page: $1) }) { try $0.clients.insert($1) }
            counts.connections += try copyAll({ try $0.connections.list(tenantID: id, page: $1) }) {
                try $0.connections.insert($1)
            }
            counts.apis += try copyAll({ try $0.resourceServers.list(tenantID: id, page: $1) }) {
                try $0.resourceServers.insert($1)
            }
            let keys = try source.read { try $0.signingKeys.list(tenantID: id) }
            try target.write(.durable) { tx in for key in keys { try tx.signingKeys.insert(key) } }
            counts.signingKeys += keys.count
            counts.users += try pages({ page in
                try source.read { try $0.users.search(tenantID: id, query: nil, page: page) }
            }) { batch in
                let passkeys = try source.read { tx in
                    try batch.flatMap { try tx.passkeys.list(tenantID: id, userID: $0.id) }
                }
                try target.write(.durable) { tx in
                    for user in batch { try tx.users.insert(user) }
                    for passkey in passkeys { try tx.passkeys.insert(passkey) }
                }
                counts.passkeys += passkeys.count
            }
            counts.deviceKeys += try copyAll({ try $0.deviceKeys.list(tenantID: id, page: $1) }) {
                try $0.deviceKeys.insert($1)
            }
            counts.linkedIdentities += try copyAll({ try $0.linkedIdentities.list(tenantID: id, page: $1) }) {
                try $0.linkedIdentities.insert($1)
            }
            counts.refreshTokens += try copyAll({ try $0.refreshTokens.list(tenantID: id, page: $1) }) {
                try $0.refreshTokens.insert($1)
            }
            // Inserting the events rebuilds the target's daily roll-up as it goes.
            counts.authEvents += try pages({ page in
                try source.read { try $0.authEvents.list(tenantID: id, page: page) }
            }) { batch in try target.write(.durable) { try $0.authEvents.insert(batch) } }
        }
        return counts
    }

    /// Counts what `store` holds, kind by kind.
    static func counts(_ store: any SesameStore) throws -> Counts {
        var counts = Counts()
        for tenant in try store.read({ try $0.tenants.all() }) {
            let id = tenant.id
            counts.tenants += 1
            /// How many records `list` reads, page by page.
            func count<T>(_ list: @escaping (any StoreTransaction, Page) throws -> [T]) throws -> Int {
                try pages({ page in try store.read { try list($0, page) } }) { _ in }
            }
            counts.clients += try count { try $0.clients.list(tenantID: id, page: $1) }
            counts.connections += try count { try $0.connections.list(tenantID: id, page: $1) }
            counts.apis += try count { try $0.resourceServers.list(tenantID: id, page: $1) }
            counts.signingKeys += try store.read { try $0.signingKeys.list(tenantID: id) }.count
            counts.users += try pages({ page in
                try store.read { try $0.users.search(tenantID: id, query: nil, page: page) }
            }) { batch in
                counts.passkeys += try store.read { tx in
                    try batch.reduce(0) { $0 + (try tx.passkeys.list(tenantID: id, userID: $1.id).count) }
                }
            }
            counts.deviceKeys += try count { try $0.deviceKeys.list(tenantID: id, page: $1) }
            counts.linkedIdentities += try count { try $0.linkedIdentities.list(tenantID: id, page: $1) }
            counts.refreshTokens += try count { try $0.refreshTokens.list(tenantID: id, page: $1) }
            counts.authEvents += try count { try $0.authEvents.list(tenantID: id, page: $1) }
        }
        return counts
    }

    /// Reads `fetch` page by page, hands each non-empty page to `handle`; returns how many records.
    static func pages<T>(_ fetch: (Page) throws -> [T], _ handle: ([T]) throws -> Void) throws -> Int {
        var offset = 0
        while true {
            let items = try fetch(Page(offset: offset, limit: batch))
            if !items.isEmpty { try handle(items) }
            offset += items.count
            if items.count < batch { return offset }
        }
    }
}
