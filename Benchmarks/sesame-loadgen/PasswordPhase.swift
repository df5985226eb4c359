import Foundation
import SesameCrypto

/// Password logins (issue 10): the server's CPU per password login against one Argon2id check
/// with the connection's parameters, measured in this process on the server's core; and an
/// unknown user against a wrong password, which must cost the same.
extension LoadRun {
    /// What a password login request is.
    enum PasswordKind: Sendable {
        /// The right password: 200.
        case right
        /// A wrong password for a user that exists: 403.
        case wrong
        /// A user that does not exist: the same 403.
        case unknown
    }

    static let passwordFloorParameters = (memoryKiB: UInt32(19_456), iterations: UInt32(2), parallelism: UInt32(1))

    /// Microseconds per Argon2id check with the default connection's parameters (median of rounds).
    static func argon2Floor(on core: Int) throws -> Double {
        let original = CPUAffinity.currentCores()
        if core >= 0 { CPUAffinity.pinCurrentThread(to: [core]) }
        defer { if !original.isEmpty { CPUAffinity.pinCurrentThread(to: original) } }
        let parameters = passwordFloorParameters
        let hasher = PasswordHasher(
            memoryKiB: parameters.memoryKiB, iterations: parameters.iterations, parallelism: parameters.parallelism)
        let password = Array("bench passphrase 0".utf8)
        let phc = try hasher.hash(password: password)
        var samples: [Double] = []
        for _ in 0..<31 {
            let start = Clock.nanoseconds()
            guard try hasher.verify(password: password, phc: phc) else { throw LoadError("the Argon2id floor failed") }
            samples.append(Double(Clock.nanoseconds() - start) / 1e3)
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    /// `count` password users through `/dbconnections/signup`; returns their emails.
    func passwordUsers(_ count: Int) throws -> [String] {
        let client = SesameClient(connection: try HTTPConnection(port: port), clientID: clientID)
        return try (0..<count).map { index in
            let email = "pw\(index)@bench.example"
            let reply = try client.connection.post(
                "/dbconnections/signup",
                json:
                    #"{"client_id":"\#(clientID)","connection":"Username-Password-Authentication","email":"\#(email)","password":"bench passphrase \#(index)"}"#
            )
            try SesameClient.expect200(reply, "POST /dbconnections/signup")
            return email
        }
    }

    /// `count` password-realm grants over the connections, round-robin over `users`. Wrong and
    /// unknown ones come from a new address each (X-Forwarded-For, the server trusts loopback), so
    /// brute-force protection does not step in.
    func passwordLogins(_ count: Int, users: [String], kind: PasswordKind) throws -> PhaseResult {
        let next = WorkCounter()
        let clientID = self.clientID
        let port = self.port
        let connections = settings.connections
        return try measured("passwords", count: count) {
            try Workers.run(count: connections) { _ in
                let connection = try HTTPConnection(port: port)
                var latency = Latencies()
                while true {
                    let index = next.next()
                    if index >= count { break }
                    let user = index % users.count
                    let email = kind == .unknown ? "nobody\(index)@bench.example" : users[user]
                    let password = kind == .right ? "bench passphrase \(user)" : "not the passphrase \(index)"
                    let body =
                        #"{"grant_type":"http://auth0.com/oauth/grant-type/password-realm","client_id":"\#(clientID)","username":"\#(email)","password":"\#(password)","realm":"Username-Password-Authentication","scope":"openid profile email"}"#
                    let address = "10.\(index / 65_536 % 256).\(index / 256 % 256).\(index % 256)"
                    let begin = Clock.nanoseconds()
                    let reply = try connection.post(
                        "/oauth/token", json: body, headers: kind == .right ? [] : [("X-Forwarded-For", address)])
                    latency.append(Clock.nanoseconds() - begin)
                    let expected = kind == .right ? 200 : 403
                    guard reply.status == expected else {
                        next.abort()
                        throw LoadError("a \(kind) password login answered \(reply.status): \(reply.text.prefix(300))")
                    }
                }
                return WorkerResult(latency: latency, tokenLatency: Latencies(), reconnects: connection.reconnects)
            }
        }
    }
}
