import Foundation
import SesameCrypto
import SesameService
import SesameStore

/// The memory 100,000 pending passkey ceremonies hold, each kind measured in a process of its
/// own (the bench runs itself again with `--pending KIND`), as the growth of resident memory.
enum PendingSessions {
    static let count = 100_000

    /// What each child process measures.
    enum Kind: String, CaseIterable {
        case login
        case signupTypical = "signup-typical"
        case signupLargest = "signup-largest"

        var label: String {
            switch self {
            case .login: "login challenges"
            case .signupTypical: "signups, email and name"
            case .signupLargest: "signups at the 2 KiB text budget"
            }
        }
    }

    /// Resident memory of this process, in bytes (Linux /proc/self/statm).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// In the child: `count` ceremonies of `kind` through the real service; prints
    /// "<bytes> <text bytes per session>".
    static func child(_ kind: Kind) throws {
        let store = InMemoryStore()
        let (bootstrap, tenant) = try Bootstrap.initialize(
            store: store, publicURL: "https://login.example.test", random: SystemRandom(), now: Date())
        let clock = ManualClock(Date())
        let sessions = InMemoryAuthSessions(capacity: count, maxPerRequester: count)
        let passkeys = PasskeyService(
            store: store, clock: clock, random: SystemRandom(), sessions: sessions,
            events: AuthEventRecorder(store: store))
        let credentials = ClientCredentials(clientID: bootstrap.clientID, clientSecret: nil)
        // Warm up allocators and caches before the baseline.
        for index in 0..<1_000 { try begin(kind, index, passkeys, tenant, credentials) }
        _ = sessions.sweep(now: clock.now().addingTimeInterval(3_600))
        let before = residentBytes()
        var text = 0
        for index in 0..<count { text = try begin(kind, index, passkeys, tenant, credentials) }
        let after = residentBytes()
        guard sessions.count == count else { throw ServiceError.unavailable("only \(sessions.count) are pending") }
        print(after - before, text)
    }

    /// One ceremony; returns the bytes of text it asked the server to hold.
    @discardableResult
    static func begin(
        _ kind: Kind, _ index: Int, _ passkeys: PasskeyService, _ tenant: TenantRecord, _ credentials: ClientCredentials
    ) throws -> Int {
        let requester = "198.51.\(index % 250).\(index / 250 % 250)"
        switch kind {
        case .login:
            _ = try passkeys.beginLogin(tenant: tenant, credentials: credentials, realm: nil, requester: requester)
            return 0
        case .signupTypical:
            let email = "user\(index)@example.com"
            let name = "Ada Lovelace"
            _ = try passkeys.beginSignup(
                tenant: tenant, credentials: credentials, realm: nil,
                profile: SignupProfileInput(email: email, name: name), metadata: [:], requester: requester)
            return email.utf8.count + name.utf8.count
        case .signupLargest:
            let email = "user\(index)@example.com"
            let names = String(repeating: "n", count: 300)
            let picture = "https://example.com/" + String(repeating: "p", count: 280)
            var metadata: [String: String] = [:]
            for key in 0..<4 { metadata["k\(key)"] = String(repeating: "v", count: 50) }
            let used =
                email.utf8.count + 4 * names.utf8.count + picture.utf8.count
                + metadata.reduce(0) {
                    $0 + $1.key.utf8.count + $1.value.utf8.count
                }
            metadata["fill"] = String(repeating: "f", count: PendingSignupProfile.maxTextBytes - used - 4)
            _ = try passkeys.beginSignup(
                tenant: tenant, credentials: credentials, realm: nil,
                profile: SignupProfileInput(
                    email: email, name: names, givenName: names, familyName: names, nickname: names, picture: picture),
                metadata: metadata, requester: requester)
            return PendingSignupProfile.maxTextBytes
        }
    }

    /// In the parent: runs each kind in a child and prints the table; false when a child failed.
    static func measure() -> Bool {
        print("Memory held by \(count) pending passkey ceremonies (each kind in a fresh process)")
        print("kind                                 MB held   bytes/session   text/session   overhead")
        var ok = true
        for kind in Kind.allCases {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = ["--pending", kind.rawValue]
            let pipe = Pipe()
            process.standardOutput = pipe
            do {
                try process.run()
            } catch {
                print("\(kind.rawValue): could not start: \(error)")
                ok = false
                continue
            }
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let fields = output.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
            guard process.terminationStatus == 0, fields.count == 2 else {
                print("\(kind.rawValue): failed (\(process.terminationStatus)): \(output)")
                ok = false
                continue
            }
            let perSession = Double(fields[0]) / Double(count)
            let text = Double(fields[1])
            let label = kind.label.padding(toLength: 34, withPad: " ", startingAt: 0)
            let overhead = text > 0 ? String(format: "%.2fx text", perSession / text) : "(no text)"
            print(
                "\(label) \(String(format: "%8.1f", Double(fields[0]) / 1_048_576))   \(String(format: "%13.0f", perSession))   \(String(format: "%12.0f", text))   \(overhead)"
            )
        }
        print("(the audit measured 14-16 KiB per pending signup before the text budget)")
        return ok
    }
}
