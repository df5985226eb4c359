// `make bench` (stats part): the adoption statistics (API.md §11) over a year for 100,000 users,
// on SQLite, next to a baseline measured in the same run (one user read by id). Machines are
// noisy, so the ratio is what means something; the milliseconds are printed beside it.
//
// What is built: 100,000 users, 40,000 with a passkey and 50,000 with a device key, and a year
// of auth events with every combination of what the roll-up counts by (clients, methods, kinds,
// providers, platforms). The roll-up's size is set by those combinations, not by how many events
// fell into each, so 800 events a day build the same table a real year of ~35,000 a day would;
// its counts are smaller, which no query reads differently.
import Foundation
import SesameCrypto
import SesameSQLite
import SesameService
import SesameStore

/// Runs `body` repeatedly for about `seconds`; its cost in microseconds (best of `rounds`).
func microseconds(seconds: Double = 1, rounds: Int = 3, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    let clock = ContinuousClock()
    for _ in 0..<rounds {
        var count = 0
        let start = clock.now
        let deadline = start.advanced(by: .milliseconds(Int(seconds * 1000)))
        while clock.now < deadline {
            try body()
            count += 1
        }
        let elapsed = clock.now - start
        let total = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
        best = min(best, total / Double(count))
    }
    return best
}

/// One line on standard output at once (a pipe would hold `print`'s lines until the end).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-bench-stats-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let store = try SQLiteStore(path: directory.appendingPathComponent("sesame.db").path)
let today = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
let (_, tenant) = try Bootstrap.initialize(
    store: store, publicURL: "https://login.example.test", random: SystemRandom(), now: today)
let connectionID = tenant.defaultConnectionID ?? ""

func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }

let users = 100_000
let clock = ContinuousClock()
let built = clock.now
for batch in stride(from: 0, to: users, by: 5_000) {
    try store.write(.relaxed) { transaction in
        for index in batch..<min(users, batch + 5_000) {
            let id = "sesame|bench\(index)"
            try transaction.users.insert(
                UserRecord(
                    tenantID: tenant.id, id: id, connectionID: connectionID, userHandle: bytes(32),
                    profile: UserProfile(email: "u\(index)@bench.example"), createdAt: today, updatedAt: today))
            if index % 5 < 2 {
                try transaction.passkeys.insert(
                    PasskeyRecord(
                        tenantID: tenant.id, id: "passkey|\(index)", userID: id, credentialID: bytes(16),
                        publicKey: bytes(77), signCount: 0, aaguid: bytes(16), backupEligible: true,
                        backupState: true, transports: [], name: "Passkey", attestationFormat: .none,
                        createdAt: today))
            }
            if index % 2 == 0 {
                try transaction.deviceKeys.insert(
                    DeviceKeyRecord(
                        tenantID: tenant.id, id: "key\(index)", userID: id, clientID: "app", publicKey: bytes(65),
                        deviceID: "install\(index)", deviceName: "Phone", platform: index % 4 == 0 ? .ios : .android,
                        osVersion: "15.7", createdAt: today))
            }
        }
    }
}
let clients = ["app-ios", "app-android", "web"]
let providers = (0..<8).map { _ in bytes(16) }
var sequence = 0
for day in 0..<366 {
    let start = today - TimeInterval(365 - day) * 86_400
    var events: [AuthEventRecord] = []
    for index in 0..<800 {
        sequence += 1
        let method: AuthEventMethod = [.passkey, .deviceKey, .password, .refreshToken][index % 4]
        events.append(
            AuthEventRecord(
                tenantID: tenant.id, id: "evt_\(sequence)", at: start + TimeInterval(index) * 100,
                type: method == .refreshToken ? .refresh : .login, method: method, outcome: .success,
                clientID: clients[(index / 4) % 3], userID: "sesame|bench\(index)", connectionID: connectionID,
                passkeyKind: method == .passkey ? ((index / 12) % 2 == 0 ? .synced : .deviceBound) : nil,
                aaguid: method == .passkey ? providers[(index / 24) % 8] : nil,
                clientPlatform: [ClientPlatform.ios, .android, .web][(index / 7) % 3]))
    }
    try store.write(.relaxed) { try $0.authEvents.insert(events) }
}
let elapsed = clock.now - built
say("built 100,000 users and 366 days of events in \(elapsed.components.seconds) s")

let cells = try store.read {
    try $0.authEvents.dailyCounts(
        tenantID: tenant.id, from: "0000-01-01", to: "9999-12-31", clientID: nil, connectionID: nil)
}.count
say("the roll-up holds \(cells) cells for the year")

let baseline = try microseconds {
    _ = try store.read { try $0.users.get(tenantID: tenant.id, id: "sesame|bench4242") }
}
let statistics = AdoptionStatistics(store: store, clock: ManualClock(today))
let from = AuthDailyCount.day(of: today - 365 * 86_400)
let to = AuthDailyCount.day(of: today)
let year = try microseconds { _ = try statistics.report(tenant: tenant, AdoptionQuery(from: from, to: to)) }
let client = try microseconds {
    _ = try statistics.report(tenant: tenant, AdoptionQuery(from: from, to: to, clientID: "app-ios"))
}
let split = try microseconds {
    _ = try store.read { transaction in try transaction.users.adoption(tenantID: tenant.id, connectionID: nil) }
}
func line(_ name: String, _ value: Double) {
    say(
        "\(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(String(format: "%9.2f ms", value / 1000))"
            + "  \(String(format: "%8.0f", value / baseline))× one user read")
}
say("baseline: one user read by id                 \(String(format: "%9.3f ms", baseline / 1000))")
line("a year's report (366 days, users' split)", year)
line("the same for one client", client)
line("of which the users' split (100,000 users)", split)
