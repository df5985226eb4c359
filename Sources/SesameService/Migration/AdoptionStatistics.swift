import Foundation
import SesameStore
import WebAuthn

/// The adoption statistics (docs/migration.md): successful authentications per UTC day from the auth
/// events' daily roll-up, by method, passkey kind, provider and platform, with the day's
/// `device_auth_passkey_share` (passkey / (passkey + device key), the figure Yahoo JAPAN reports)
/// and the user base's split. Reading a year is reading the roll-up's cells for 366 days, not
/// the events.
public struct AdoptionReport: Sendable, Equatable, Encodable {
    public struct Methods: Sendable, Equatable, Encodable {
        public var passkey = 0
        public var deviceKey = 0
        public var password = 0
        public var apple = 0
        public var refresh = 0
        enum CodingKeys: String, CodingKey {
            case passkey, password, apple, refresh
            case deviceKey = "device_key"
        }

        subscript(method: AuthStatsMethod) -> Int {
            get {
                switch method {
                case .passkey: return passkey
                case .deviceKey: return deviceKey
                case .password: return password
                case .apple: return apple
                case .refresh: return refresh
                // Upgrades are counted in `Day.upgrades`, not as authentications.
                case .upgradeStrongPassword, .upgradeSignInWithApple, .upgradePasskey: return 0
                }
            }
            set {
                switch method {
                case .passkey: passkey = newValue
                case .deviceKey: deviceKey = newValue
                case .password: password = newValue
                case .apple: apple = newValue
                case .refresh: refresh = newValue
                case .upgradeStrongPassword, .upgradeSignInWithApple, .upgradePasskey: break
                }
            }
        }
    }

    public struct Kinds: Sendable, Equatable, Encodable {
        public var synced = 0
        public var deviceBound = 0
        enum CodingKeys: String, CodingKey {
            case synced
            case deviceBound = "device_bound"
        }
    }

    /// Account security upgrades committed (docs/account-upgrades.md), by target.
    public struct Upgrades: Sendable, Equatable, Encodable {
        public var strongPassword = 0
        public var signInWithApple = 0
        public var passkey = 0
        enum CodingKeys: String, CodingKey {
            case strongPassword = "strong_password"
            case signInWithApple = "sign_in_with_apple"
            case passkey
        }

        subscript(type: UpgradeType) -> Int {
            get {
                switch type {
                case .strongPassword: strongPassword
                case .signInWithApple: signInWithApple
                case .passkey: passkey
                }
            }
            set {
                switch type {
                case .strongPassword: strongPassword = newValue
                case .signInWithApple: signInWithApple = newValue
                case .passkey: passkey = newValue
                }
            }
        }
    }

    public struct Platforms: Sendable, Equatable, Encodable {
        public var ios = 0
        public var android = 0
        public var web = 0
    }

    public struct Day: Sendable, Equatable, Encodable {
        /// `YYYY-MM-DD`, UTC.
        public var date: String
        public var total = 0
        public var byMethod = Methods()
        public var passkey = Kinds()
        /// Provider names (from the AAGUID table) and their passkey authentications.
        public var providers: [String: Int] = [:]
        public var platforms = Platforms()
        /// Upgrades that day (not authentications: `total` leaves them out).
        public var upgrades = Upgrades()

        /// passkey / (passkey + device key); nil on a day without either.
        public var deviceAuthPasskeyShare: Double? {
            let devices = byMethod.passkey + byMethod.deviceKey
            return devices == 0 ? nil : Double(byMethod.passkey) / Double(devices)
        }

        enum CodingKeys: String, CodingKey {
            case date, total, passkey, providers, platforms, upgrades
            case byMethod = "by_method"
            case deviceAuthPasskeyShare = "device_auth_passkey_share"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(date, forKey: .date)
            try container.encode(total, forKey: .total)
            try container.encode(byMethod, forKey: .byMethod)
            try container.encode(passkey, forKey: .passkey)
            try container.encode(providers, forKey: .providers)
            try container.encode(platforms, forKey: .platforms)
            try container.encode(upgrades, forKey: .upgrades)
            // Four decimals are plenty for a share, and a null says "no device authentications".
            if let share = deviceAuthPasskeyShare {
                try container.encode((share * 10_000).rounded() / 10_000, forKey: .deviceAuthPasskeyShare)
            } else {
                try container.encodeNil(forKey: .deviceAuthPasskeyShare)
            }
        }
    }

    public struct Users: Sendable, Equatable, Encodable {
        public var total: Int
        public var withPasskey: Int
        public var withDeviceKeyOnly: Int
        public var passwordOnly: Int
        enum CodingKeys: String, CodingKey {
            case total
            case withPasskey = "with_passkey"
            case withDeviceKeyOnly = "with_device_key_only"
            case passwordOnly = "password_only"
        }
    }

    public var days: [Day]
    public var users: Users

    /// The report of `cells` for every day from `from` through `to` (days without events are zeros).
    /// `metadataNames` (by 32-hex AAGUID) come before the AAGUID table's names.
    public static func make(
        cells: [AuthDailyCount], days: [String], users: UserAdoption, metadataNames: [String: String] = [:]
    ) -> AdoptionReport {
        var report = days.map { Day(date: $0) }
        var index: [String: Int] = [:]
        for (position, day) in days.enumerated() { index[day] = position }
        var names: [String: String?] = [:]
        // Each cell is added in place (a copy of the day would copy its providers too).
        for cell in cells {
            guard let at = index[cell.day] else { continue }
            if let upgrade = cell.method.upgrade {
                report[at].upgrades[upgrade] += cell.count
                continue
            }
            report[at].total += cell.count
            report[at].byMethod[cell.method] += cell.count
            if cell.method == .passkey {
                switch cell.passkeyKind {
                case .synced?: report[at].passkey.synced += cell.count
                case .deviceBound?: report[at].passkey.deviceBound += cell.count
                case nil: break
                }
                let name: String?
                if let known = names[cell.aaguid] {
                    name = known
                } else {
                    name = metadataNames[cell.aaguid] ?? providerName(cell.aaguid)
                    names[cell.aaguid] = name
                }
                if let name { report[at].providers[name, default: 0] += cell.count }
            }
            switch cell.platform {
            case .ios?: report[at].platforms.ios += cell.count
            case .android?: report[at].platforms.android += cell.count
            case .web?: report[at].platforms.web += cell.count
            case nil: break
            }
        }
        return AdoptionReport(
            days: report,
            users: Users(
                total: users.total, withPasskey: users.withPasskey, withDeviceKeyOnly: users.withDeviceKeyOnly,
                passwordOnly: users.passwordOnly))
    }

    /// The provider an AAGUID (32 hex digits) names: the AAGUID table's name, "Unknown" for the
    /// all-zero AAGUID (authenticators that do not say), else the AAGUID in its 8-4-4-4-12 form.
    static func providerName(_ hex: String) -> String? {
        guard let bytes = aaguidBytes(hex) else { return nil }
        if bytes.allSatisfy({ $0 == 0 }) { return "Unknown" }
        return AAGUIDRegistry.name(for: bytes) ?? AAGUIDRegistry.format(bytes)
    }

    /// The 16 bytes of an AAGUID in 32 hex digits, nil otherwise.
    static func aaguidBytes(_ hex: String) -> [UInt8]? {
        guard hex.utf8.count == 32 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    /// The FIDO metadata descriptions of the passkey AAGUIDs in `cells`, by 32-hex AAGUID.
    static func metadataNames(_ cells: [AuthDailyCount], in transaction: any StoreTransaction) throws -> [String:
        String]
    {
        var names: [String: String] = [:]
        for hex in Set(cells.lazy.filter { $0.method == .passkey }.map(\.aaguid)) {
            guard let bytes = aaguidBytes(hex), bytes.contains(where: { $0 != 0 }),
                let entry = try transaction.authenticatorMetadata.get(aaguid: AAGUIDRegistry.format(bytes))
            else { continue }
            names[hex] = entry.description
        }
        return names
    }

    /// Every UTC day from `from` through `to`.
    static func days(from: Date, to: Date) -> [String] {
        var days: [String] = []
        var day = Date(timeIntervalSince1970: (from.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
        while day <= to {
            days.append(AuthDailyCount.day(of: day))
            day += 86_400
        }
        return days
    }
}

/// What a statistics request asks for.
public struct AdoptionQuery: Sendable {
    /// The longest range one request reads.
    public static let maxDays = 366
    /// Without `from`, this many days up to `to`.
    public static let defaultDays = 30

    public var from: String?
    public var to: String?
    public var clientID: String?
    /// A connection name.
    public var connection: String?

    public init(from: String? = nil, to: String? = nil, clientID: String? = nil, connection: String? = nil) {
        self.from = from
        self.to = to
        self.clientID = clientID
        self.connection = connection
    }

    /// A `YYYY-MM-DD` date at 00:00 UTC, or the error naming `field`.
    static func date(_ text: String, _ field: String) throws(ServiceError) -> Date {
        guard let date = AuthDailyCount.start(of: text) else {
            throw .invalidRequest("\(field) must be a date like 2027-01-15")
        }
        return date
    }
}

/// Reads the report for a tenant (the Management API, the admin page, `sesame stats`, the bench).
public struct AdoptionStatistics: Sendable {
    let access: StoreAccess
    let clock: any ServiceClock

    init(access: StoreAccess, clock: any ServiceClock) {
        self.access = access
        self.clock = clock
    }

    public init(store: any SesameStore, clock: any ServiceClock) {
        self.init(access: StoreAccess(store: store), clock: clock)
    }

    public func report(tenant: TenantRecord, _ query: AdoptionQuery) throws(ServiceError) -> AdoptionReport {
        let today = Date(timeIntervalSince1970: (clock.now().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
        let to = try query.to.map { (text) throws(ServiceError) in try AdoptionQuery.date(text, "to") } ?? today
        let from =
            try query.from.map { (text) throws(ServiceError) in try AdoptionQuery.date(text, "from") }
            ?? to - TimeInterval(AdoptionQuery.defaultDays - 1) * 86_400
        guard from <= to else { throw .invalidRequest("from must not be after to") }
        let days = AdoptionReport.days(from: from, to: to)
        guard days.count <= AdoptionQuery.maxDays else {
            throw .invalidRequest("a report covers at most \(AdoptionQuery.maxDays) days")
        }
        if let clientID = query.clientID {
            guard !clientID.isEmpty, clientID.utf8.count <= 128 else { throw .invalidRequest("client_id is not valid") }
        }
        return try access.read { transaction in
            var connectionID: String?
            if let name = query.connection {
                guard name.utf8.count <= 128,
                    let connection = try transaction.connections.get(tenantID: tenant.id, name: name)
                else { throw ServiceError.invalidRequest("connection is not a connection of this tenant") }
                connectionID = connection.id
            }
            let cells = try transaction.authEvents.dailyCounts(
                tenantID: tenant.id, from: days[0], to: days[days.count - 1], clientID: query.clientID,
                connectionID: connectionID)
            let users = try transaction.users.adoption(tenantID: tenant.id, connectionID: connectionID)
            return AdoptionReport.make(
                cells: cells, days: days, users: users,
                metadataNames: try AdoptionReport.metadataNames(cells, in: transaction))
        }
    }
}

/// The report as CSV (RFC 4180): one row per day, the users' split left out (it is not per day).
public enum AdoptionCSV {
    public static let header =
        "date,total,passkey,device_key,password,apple,refresh,synced,device_bound,ios,android,web,"
        + "device_auth_passkey_share,upgrade_strong_password,upgrade_sign_in_with_apple,upgrade_passkey"

    public static func text(_ report: AdoptionReport) -> String {
        var lines = [header]
        for day in report.days {
            let methods = day.byMethod
            let share = day.deviceAuthPasskeyShare.map { String(format: "%.4f", $0) } ?? ""
            let fields: [String] = [
                day.date, String(day.total), String(methods.passkey), String(methods.deviceKey),
                String(methods.password), String(methods.apple), String(methods.refresh), String(day.passkey.synced),
                String(day.passkey.deviceBound), String(day.platforms.ios), String(day.platforms.android),
                String(day.platforms.web), share, String(day.upgrades.strongPassword),
                String(day.upgrades.signInWithApple), String(day.upgrades.passkey),
            ]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
