import Foundation
import SesameWire

/// A legacy device key (docs/migration.md): a P-256 key made on one device that re-authenticates a user
/// who is already signed in there, and nothing else. `id` is the base64url form of the 16 random
/// bytes the server chose as its key id.
public struct DeviceKeyRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = DeviceKeyRecord.currentVersion
    public var tenantID: String
    /// The key id, base64url (16 bytes decoded).
    public var id: String
    public var userID: String
    /// The client (app) that registered or imported it; the signed bytes name it.
    public var clientID: String
    /// The public key as an uncompressed P-256 point (0x04 ‖ x ‖ y, 65 bytes).
    @Base64Bytes public var publicKey: [UInt8]
    /// The app's random install id: one active key per (user, device id).
    public var deviceID: String
    public var deviceName: String
    public var platform: ClientPlatform
    public var osVersion: String
    public var model: String?
    public var state: DeviceKeyState
    public var createdAt: Date
    public var lastUsedAt: Date?
    /// When the user enrolled a passkey after re-authenticating with this key.
    public var migratedAt: Date?
    /// The passkey that replaced it.
    public var migratedToPasskeyID: String?
    /// When a migrated key stops working (the connection's grace period after `migratedAt`).
    public var expiresAt: Date?

    public init(
        tenantID: String, id: String, userID: String, clientID: String, publicKey: [UInt8], deviceID: String,
        deviceName: String, platform: ClientPlatform, osVersion: String, model: String? = nil,
        state: DeviceKeyState = .active, createdAt: Date, lastUsedAt: Date? = nil, migratedAt: Date? = nil,
        migratedToPasskeyID: String? = nil, expiresAt: Date? = nil
    ) {
        self.tenantID = tenantID
        self.id = id
        self.userID = userID
        self.clientID = clientID
        self.publicKey = publicKey
        self.deviceID = deviceID
        self.deviceName = deviceName
        self.platform = platform
        self.osVersion = osVersion
        self.model = model
        self.state = state
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.migratedAt = migratedAt
        self.migratedToPasskeyID = migratedToPasskeyID
        self.expiresAt = expiresAt
    }

    /// Whether the key may re-authenticate at `now`: active, or migrated and inside its grace period.
    public func isUsable(at now: Date) -> Bool {
        switch state {
        case .active: return true
        case .migrated: return expiresAt.map { now < $0 } ?? false
        case .revoked: return false
        }
    }
}

extension DeviceKeyRecord: BinaryCodedRecord {
    public static let recordFields = RecordFields<DeviceKeyRecord>(
        blank: DeviceKeyRecord(
            tenantID: "", id: "", userID: "", clientID: "", publicKey: [], deviceID: "", deviceName: "",
            platform: .ios, osVersion: "", createdAt: .distantPast),
        [
            .field("tenantID", \.tenantID),
            .field("id", \.id),
            .field("userID", \.userID),
            .field("clientID", \.clientID),
            .field("publicKey", \._publicKey.wrappedValue),
            .field("deviceID", \.deviceID),
            .field("deviceName", \.deviceName),
            .field("platform", \.platform),
            .field("osVersion", \.osVersion),
            .field("model", \.model),
            .field("state", \.state),
            .field("createdAt", \.createdAt),
            .field("lastUsedAt", \.lastUsedAt),
            .field("migratedAt", \.migratedAt),
            .field("migratedToPasskeyID", \.migratedToPasskeyID),
            .field("expiresAt", \.expiresAt),
        ])
}

/// One cell of the adoption statistics' daily roll-up (docs/migration.md): how many successful
/// authentications of one kind a UTC day had. The store keeps these beside the auth events and
/// adds to them in the transaction that inserts the events, so a year of statistics is a few
/// thousand rows to read, not millions of events.
public struct AuthDailyCount: Sendable, Hashable {
    /// `YYYY-MM-DD`, UTC.
    public var day: String
    /// "" when the event named no client.
    public var clientID: String
    /// "" when the event named no connection.
    public var connectionID: String
    public var method: AuthStatsMethod
    public var passkeyKind: PasskeyKind?
    /// The authenticator model, 32 lowercase hex digits; "" when unknown or not a passkey.
    public var aaguid: String
    public var platform: ClientPlatform?
    public var count: Int

    public init(
        day: String, clientID: String, connectionID: String, method: AuthStatsMethod, passkeyKind: PasskeyKind?,
        aaguid: String, platform: ClientPlatform?, count: Int
    ) {
        self.day = day
        self.clientID = clientID
        self.connectionID = connectionID
        self.method = method
        self.passkeyKind = passkeyKind
        self.aaguid = aaguid
        self.platform = platform
        self.count = count
    }

    /// The cell without its count (what the roll-up adds by).
    public var key: AuthDailyCount {
        var key = self
        key.count = 0
        return key
    }

    /// The UTC day of `date`, `YYYY-MM-DD`.
    public static func day(of date: Date) -> String {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        return civilDate(daysSince1970: days)
    }

    /// 00:00 UTC of the day `text` names (`YYYY-MM-DD`, years 1970–9999); nil for anything else,
    /// such as February 30th. Howard Hinnant's days-from-civil, the inverse of `civilDate`.
    public static func start(of text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let date = Date(timeIntervalSince1970: TimeInterval(era * 146_097 + dayOfEra - 719_468) * 86_400)
        // A day past the month's end comes back as another date.
        return Self.day(of: date) == text ? date : nil
    }

    /// Howard Hinnant's days-to-civil algorithm: no calendar object, no locale, no time zone.
    static func civilDate(daysSince1970 days: Int) -> String {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(day))"
    }
}

extension AuthEventRecord {
    /// How the adoption statistics count this event, or nil when it is not a successful
    /// authentication (docs/migration.md): a passkey signup counts as a passkey authentication (its token
    /// response says so); logins count by their method, device-key re-authentications included;
    /// refresh grants count as `refresh`. Enrollments, password changes, recoveries, second
    /// factors and client credentials are not authentications of their own.
    public var statsMethod: AuthStatsMethod? {
        guard outcome == .success else { return nil }
        switch (type, method) {
        case (.signup, .passkey), (.login, .passkey): return .passkey
        case (.login, .password): return .password
        case (.login, .deviceKey): return .deviceKey
        case (.refresh, .refreshToken): return .refresh
        case (.login, .apple): return .apple
        case (.upgrade, .password): return .upgradeStrongPassword
        case (.upgrade, .apple): return .upgradeSignInWithApple
        case (.upgrade, .passkey): return .upgradePasskey
        default: return nil
        }
    }

    /// The roll-up cell this event adds one to; nil when it does not count.
    public var dailyCount: AuthDailyCount? {
        guard let method = statsMethod else { return nil }
        let platform: ClientPlatform? =
            clientPlatform
            ?? {
                switch self.platform {
                case .android?: return .android
                case .web?: return .web
                case .iosOrWeb?, nil: return nil
                }
            }()
        return AuthDailyCount(
            day: AuthDailyCount.day(of: at), clientID: clientID ?? "", connectionID: connectionID ?? "",
            method: method, passkeyKind: method == .passkey ? passkeyKind : nil,
            aaguid: method == .passkey ? (aaguid.map(Hex.lowercase) ?? "") : "", platform: platform, count: 1)
    }

    /// Adds up the cells of `events` (one batch's increments).
    public static func dailyCounts(_ events: [AuthEventRecord]) -> [AuthDailyCount] {
        var sums: [AuthDailyCount: Int] = [:]
        for event in events {
            guard let cell = event.dailyCount else { continue }
            sums[cell.key, default: 0] += 1
        }
        return sums.map { key, count in
            var cell = key
            cell.count = count
            return cell
        }
    }

}
