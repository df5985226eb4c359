import Foundation
import SesameCrypto
import SesameService
import SesameStore
import WebAuthn

/// `sesame demo migration --data DIR [--users N] [--days D] [--seed S] [--public-url URL]`: fills a
/// data directory with a simulated move from legacy device keys to passkeys, so the adoption
/// statistics have something to show (the admin page's chart, `sesame stats`).
///
/// The simulation (`MigrationDemo`) is deterministic for a seed: app users on iOS and Android
/// start with a device key, web users with a password; every day each user signs in with some
/// probability; a device that can have passkeys (by the connection's minimum OS versions, and OS
/// updates that arrive during the year) shows the prompt after a device-key re-authentication, and
/// some users create a passkey, which migrates their key. Its events go through the store's own
/// insert, so the daily roll-up is what a real year would have left.
///
/// Exit status: 0 written, 1 the store failed, 2 bad arguments (or a directory that has users).
enum DemoCommand {
    static let name = "demo"

    static let spec = CommandSpec(options: [
        OptionSpec("data", .single, placeholder: "DIR"),
        OptionSpec("store", .single, placeholder: "URI"),
        OptionSpec("users", .single, placeholder: "N"),
        OptionSpec("days", .single, placeholder: "D"),
        OptionSpec("seed", .single, placeholder: "S"),
        OptionSpec("public-url", .single, placeholder: "URL"),
    ])

    static func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        guard let scenario = arguments.first else {
            return SesameCommandLine.usageError(name, "missing scenario: migration", environment)
        }
        if ["--help", "-h", "help"].contains(scenario) {
            environment.writeOutput(Usage.demo)
            return SesameCommandLine.success
        }
        guard scenario == "migration" else {
            return SesameCommandLine.usageError(
                name, "unknown scenario '\(scenario)' (expected migration)", environment)
        }
        let parsed: ParsedArguments
        var settings = MigrationDemo.Settings()
        let location: StoreLocation
        do throws(UsageError) {
            parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), spec: spec)
            if parsed.helpRequested {
                environment.writeOutput(Usage.demo)
                return SesameCommandLine.success
            }
            func number(_ option: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int? {
                guard let text = parsed.value(option) else { return nil }
                guard let value = Int(text), range.contains(value) else {
                    throw UsageError("--\(option) must be an integer from \(range.lowerBound) to \(range.upperBound)")
                }
                return value
            }
            settings.users = try number("users", 1...200_000) ?? settings.users
            settings.days = try number("days", 1...AdoptionQuery.maxDays) ?? settings.days
            if let seed = parsed.value("seed") {
                guard let value = UInt64(seed) else { throw UsageError("--seed must be a non-negative integer") }
                settings.seed = value
            }
            location = try StoreLocation.parse(parsed.value("store") ?? environment.variables["SESAME_STORE"])
        } catch {
            return SesameCommandLine.usageError("demo migration", error.message, environment)
        }
        // Port 8090 by default, so that the demo is served beside `make run` (8080).
        let publicURL =
            parsed.value("public-url") ?? environment.variables["SESAME_PUBLIC_URL"] ?? "http://localhost:8090"
        do {
            _ = try Bootstrap.validatePublicURL(publicURL)
        } catch {
            return SesameCommandLine.usageError("demo migration", "--public-url: \(error.message)", environment)
        }
        let data = parsed.value("data") ?? environment.variables["SESAME_DATA"] ?? "./data"
        let directory = DataDirectory(path: data)
        do {
            try directory.create()
            let store = try directory.openStore(location)
            if try !DataDirectory.isInitialised(store) {
                let result = try DataDirectory.initialise(
                    store: store, masterKey: try directory.masterKey(variables: environment.variables),
                    publicURL: publicURL, now: environment.now())
                environment.writeOutput(DataDirectory.summary(result, publicURL: publicURL))
            }
            guard let tenant = try store.read({ try $0.tenants.all().first }) else {
                throw DataDirectoryError("the store has no tenant")
            }
            let existing = try store.read { try $0.users.search(tenantID: tenant.id, query: nil, page: Page(limit: 1)) }
            guard existing.isEmpty else {
                return SesameCommandLine.usageError(
                    "demo migration", "\(data) already has users; use an empty data directory", environment)
            }
            let summary = try MigrationDemo(settings: settings).write(
                to: store, tenant: tenant, today: environment.now())
            environment.writeOutput(summary.text(data: data, publicURL: tenant.publicURL, rpID: tenant.rpID))
            return SesameCommandLine.success
        } catch {
            environment.writeError("sesame: demo migration: \(SesameCommandLine.oneLine(String(describing: error)))\n")
            return SesameCommandLine.failure
        }
    }
}

/// The simulated year (see `DemoCommand`).
struct MigrationDemo {
    struct Settings {
        var users = 1_000
        var days = 365
        var seed: UInt64 = 1
    }

    /// What was written.
    struct Summary: Equatable {
        var users = 0
        var events = 0
        var passkeys = 0
        var migratedKeys = 0
        var first = ""
        var last = ""
        /// The last day's passkey share of device authentications.
        var lastShare: Double?

        func text(data: String, publicURL: String, rpID: String) -> String {
            let share = lastShare.map { String(format: "%.1f%%", $0 * 100) } ?? "—"
            // Listen on the public URL's port: `sesame serve` defaults to 8080, where `make run` is.
            let listen = URLComponents(string: publicURL)?.port.map { " --listen 127.0.0.1:\($0)" } ?? ""
            return """
                Simulated \(users) users from \(first) to \(last): \(events) authentications, \(passkeys) passkeys \
                created, \(migratedKeys) device keys migrated.
                On \(last) the passkey share of device authentications was \(share).
                Serve it:  sesame serve --data \(data)\(listen) --public-url \(publicURL)
                Warning: the RP ID is \(rpID), as for any other Sesame on that host: the browser offers \
                the passkeys of one on the other, and its cookies are per host, not per port. Use a \
                separate browser profile.
                Then open \(publicURL)/admin/adoption (after the admin setup link), or run
                  sesame stats --server \(publicURL) --from \(first) --to \(last)

                """
        }
    }

    let settings: Settings

    /// SplitMix64: a small, fast, seeded generator (the demo needs repeatability, not secrecy).
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        /// Uniform in [0, 1).
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
    }

    /// One simulated person.
    struct Person {
        var user: UserRecord
        var platform: ClientPlatform
        /// The OS version now, and the day it is updated to a passkey-capable one (if ever).
        var osVersion: String
        var updateDay: Int?
        var deviceKey: DeviceKeyRecord?
        var hasPasskey = false
    }

    static let icloud: [UInt8] = [
        0xfb, 0xfc, 0x30, 0x07, 0x15, 0x4e, 0x4e, 0xcc, 0x8c, 0x0b, 0x6e, 0x02, 0x05, 0x57, 0xd7, 0xbd,
    ]
    static let google: [UInt8] = [
        0xea, 0x9b, 0x8d, 0x66, 0x4d, 0x01, 0x1d, 0x21, 0x3c, 0xe4, 0xb6, 0xb4, 0x8c, 0xb5, 0x75, 0xd4,
    ]

    /// How often a user signs in on a day, and how often a prompt turns into a passkey.
    static let dailySignIn = 0.35
    static let promptAccepted = 0.018

    func write(to store: any SesameStore, tenant: TenantRecord, today: Date) throws -> Summary {
        var random = Generator(state: settings.seed)
        let connection = try store.read { transaction -> ConnectionRecord? in
            guard let id = tenant.defaultConnectionID else { return nil }
            return try transaction.connections.get(tenantID: tenant.id, id: id)
        }
        guard let connection else { throw DataDirectoryError("the tenant has no default connection") }
        let client = try store.read { transaction in
            try transaction.clients.list(tenantID: tenant.id, page: Page(limit: 100)).first { $0.appType == .native }
        }
        guard let client else { throw DataDirectoryError("the tenant has no native client") }
        let policy = connection.passkey.migration
        let day0 = Date(
            timeIntervalSince1970: ((today.timeIntervalSince1970 / 86_400).rounded(.down) - Double(settings.days - 1))
                * 86_400)
        // One real P-256 point and COSE key stand in for every demo key (no one signs in with them).
        let key = try PrivateKey.generate(.ec(.p256))
        guard case .ec(_, let x, let y) = key.publicKey.components else { throw DataDirectoryError("no P-256 key") }
        let point = [0x04] + x + y
        let cose = try COSEKey(publicKey: key.publicKey, algorithm: .es256).encoded

        var summary = Summary()
        var people: [Person] = []
        for index in 0..<settings.users {
            let roll = random.unit()
            let platform: ClientPlatform = roll < 0.55 ? .ios : roll < 0.9 ? .android : .web
            let old = random.unit() < (platform == .ios ? 0.45 : 0.25)
            let osVersion: String
            switch platform {
            case .ios: osVersion = old ? "15.7" : "17.4"
            case .android: osVersion = old ? "8.1" : "13"
            case .web: osVersion = ""
            }
            let updateDay = old && random.unit() < 0.6 ? Int(random.unit() * Double(settings.days)) : nil
            let created = day0 - 86_400 * (1 + random.unit() * 700)
            let user = UserRecord(
                tenantID: tenant.id, id: "sesame|demo\(String(format: "%06d", index))", connectionID: connection.id,
                userHandle: random.bytes(32), profile: UserProfile(email: "user\(index)@demo.example"),
                createdAt: created, updatedAt: created)
            var person = Person(user: user, platform: platform, osVersion: osVersion, updateDay: updateDay)
            if platform != .web {
                person.deviceKey = DeviceKeyRecord(
                    tenantID: tenant.id, id: Base64URL.encode(random.bytes(16)), userID: user.id, clientID: client.id,
                    publicKey: point, deviceID: "demo-install-\(index)", deviceName: "Demo device",
                    platform: platform, osVersion: osVersion, createdAt: created)
            }
            people.append(person)
        }
        try store.write(.durable) { transaction in
            for person in people {
                try transaction.users.insert(person.user)
                if let key = person.deviceKey { try transaction.deviceKeys.insert(key) }
            }
        }
        summary.users = people.count

        var sequence = 0
        for day in 0..<settings.days {
            let start = day0 + TimeInterval(day) * 86_400
            var events: [AuthEventRecord] = []
            var passkeys: [PasskeyRecord] = []
            var migrated: [DeviceKeyRecord] = []
            for index in people.indices {
                var person = people[index]
                if let update = person.updateDay, update == day {
                    person.osVersion = person.platform == .ios ? "17.4" : "13"
                }
                guard random.unit() < Self.dailySignIn else {
                    people[index] = person
                    continue
                }
                let at = start + random.unit() * 86_399
                sequence += 1
                // Time-ordered like the server's ids: `evt_`, the milliseconds, then a sequence number.
                let id =
                    "evt_" + String(format: "%012llx%012llx", UInt64(at.timeIntervalSince1970 * 1000), UInt64(sequence))
                let aaguid = person.platform == .android ? Self.google : Self.icloud
                if person.hasPasskey {
                    events.append(
                        AuthEventRecord(
                            tenantID: tenant.id, id: id, at: at, type: .login, method: .passkey, outcome: .success,
                            clientID: client.id, userID: person.user.id, connectionID: connection.id,
                            passkeyKind: .synced, aaguid: aaguid, clientPlatform: person.platform))
                } else if let deviceKey = person.deviceKey {
                    events.append(
                        AuthEventRecord(
                            tenantID: tenant.id, id: id, at: at, type: .login, method: .deviceKey, outcome: .success,
                            clientID: client.id, userID: person.user.id, connectionID: connection.id,
                            clientPlatform: person.platform))
                    let device = HintedDevice(
                        platform: person.platform, osVersion: OSVersion(person.osVersion), webView: false)
                    // The prompt after the re-auth, on a device that can have a passkey.
                    if MethodChoice.supportsPasskeys(device, policy: policy), random.unit() < Self.promptAccepted {
                        person.hasPasskey = true
                        passkeys.append(passkey(person, aaguid: aaguid, cose: cose, at: at + 30, random: &random))
                        var key = deviceKey
                        key.state = .migrated
                        key.migratedAt = at + 30
                        key.migratedToPasskeyID = passkeys.last?.id
                        key.expiresAt = at + 30 + TimeInterval(policy.deviceKeyGraceDays) * 86_400
                        key.osVersion = person.osVersion
                        person.deviceKey = key
                        migrated.append(key)
                    }
                } else {
                    events.append(
                        AuthEventRecord(
                            tenantID: tenant.id, id: id, at: at, type: .login, method: .password, outcome: .success,
                            clientID: client.id, userID: person.user.id, connectionID: connection.id,
                            clientPlatform: .web))
                    // Progressive enrollment after a password sign-in.
                    if random.unit() < Self.promptAccepted / 2 {
                        person.hasPasskey = true
                        passkeys.append(passkey(person, aaguid: Self.google, cose: cose, at: at + 30, random: &random))
                    }
                }
                people[index] = person
            }
            try store.write(.relaxed) { transaction in
                for passkey in passkeys { try transaction.passkeys.insert(passkey) }
                for key in migrated { try transaction.deviceKeys.update(key) }
                try transaction.authEvents.insert(events)
            }
            summary.events += events.count
            summary.passkeys += passkeys.count
            summary.migratedKeys += migrated.count
            if day == settings.days - 1 {
                let passkey = events.filter { $0.method == .passkey }.count
                let deviceKey = events.filter { $0.method == .deviceKey }.count
                summary.lastShare = passkey + deviceKey == 0 ? nil : Double(passkey) / Double(passkey + deviceKey)
            }
        }
        summary.first = AuthDailyCount.day(of: day0)
        summary.last = AuthDailyCount.day(of: day0 + TimeInterval(settings.days - 1) * 86_400)
        return summary
    }

    private func passkey(
        _ person: Person, aaguid: [UInt8], cose: [UInt8], at: Date, random: inout Generator
    ) -> PasskeyRecord {
        PasskeyRecord(
            tenantID: person.user.tenantID,
            id: "passkey|" + random.bytes(12).map { String(format: "%02x", $0) }.joined(),
            userID: person.user.id, credentialID: random.bytes(16), publicKey: cose, signCount: 0, aaguid: aaguid,
            backupEligible: true, backupState: true, transports: ["internal", "hybrid"],
            name: AAGUIDRegistry.name(for: aaguid) ?? "Passkey", attestationFormat: .none, createdAt: at,
            lastUsedAt: at)
    }
}
