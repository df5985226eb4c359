import Dispatch
import Foundation
import SesameHTTP
import SesameSoftwareAuthenticator
import Synchronization
import Testing

/// Audit item 9: the clone check compared with a counter read before the write and accepted an
/// equal one, so two assertions with the same counter (a cloned authenticator) both succeeded
/// when they raced. The stored counter is now compared and set in the serialised write.
@Suite("Audit 9: one counter value signs in once")
struct CounterRaceTests {
    /// An authenticator whose counter counts, and a clone of it made after signup.
    static func twins(_ api: APIHarness) throws -> (SoftwareAuthenticator, SoftwareAuthenticator) {
        var configuration = AuthenticatorConfiguration()
        configuration.origin = .web(APIHarness.webOrigin)
        configuration.signCounter = .increment
        configuration.backupEligible = false
        configuration.backupState = false
        let original = SoftwareAuthenticator(configuration: configuration)
        _ = try api.signUpForTokens(original, email: "ada@example.com", scope: "openid")
        let clone = SoftwareAuthenticator(
            configuration: configuration,
            store: InMemoryCredentialStore(credentials: try original.store.allCredentials()))
        return (original, clone)
    }

    /// A login challenge answered by `authenticator`: the token call's auth session and response.
    static func assertion(_ api: APIHarness, _ authenticator: SoftwareAuthenticator) throws -> (String, String) {
        let challenge = api.send(
            .post, "/passkey/challenge", json: APIHarness.encode(["client_id": api.bootstrap.clientID]))
        let assertion = try authenticator.getAssertion(optionsJSON: challenge.body)
        #expect(assertion.authenticatorData.signCount == 1)
        return (challenge.json["auth_session"] as? String ?? "", assertion.jsonString)
    }

    static func exchange(_ api: APIHarness, _ pending: (String, String)) -> Int {
        api.webAuthnGrant(authSession: pending.0, response: pending.1, scope: "openid").status
    }

    @Test(arguments: HarnessStore.allCases)
    func atEveryTransactionBoundary(_ kind: HarnessStore) throws {
        var boundary = 0
        while true {
            let api = try APIHarness(store: kind, interleave: true)
            let (original, clone) = try Self.twins(api)
            let first = try Self.assertion(api, original)
            let second = try Self.assertion(api, clone)
            let racer = Mutex<Int?>(nil)
            let interleaving = try #require(api.interleaving)
            interleaving.arm(after: boundary) { racer.withLock { $0 = Self.exchange(api, second) } }
            let status = Self.exchange(api, first)
            guard let raced = racer.withLock({ $0 }) else {
                #expect(boundary >= 3, "the login made only \(boundary) transactions")
                break
            }
            #expect([status, raced].sorted() == [200, 400], "boundary \(boundary): \(status), \(raced)")
            boundary += 1
        }
    }

    @Test(arguments: HarnessStore.allCases)
    func atTheSameTimeFromTwoThreads(_ kind: HarnessStore) throws {
        for _ in 0..<10 {
            let api = try APIHarness(store: kind)
            let (original, clone) = try Self.twins(api)
            let pending = [try Self.assertion(api, original), try Self.assertion(api, clone)]
            let statuses = Mutex<[Int]>([])
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for index in 0..<2 {
                DispatchQueue.global().async(group: group) {
                    start.wait()
                    let status = Self.exchange(api, pending[index])
                    statuses.withLock { $0.append(status) }
                }
            }
            start.signal()
            start.signal()
            group.wait()
            #expect(statuses.withLock { $0.sorted() } == [200, 400])
        }
    }

    @Test(arguments: HarnessStore.allCases)
    func aCounterThatAdvancesKeepsWorking(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let (original, _) = try Self.twins(api)
        #expect(Self.exchange(api, try Self.assertion(api, original)) == 200)
        let challenge = api.send(
            .post, "/passkey/challenge", json: APIHarness.encode(["client_id": api.bootstrap.clientID]))
        let next = try original.getAssertion(optionsJSON: challenge.body)
        #expect(next.authenticatorData.signCount == 2)
        #expect(
            api.webAuthnGrant(
                authSession: challenge.json["auth_session"] as? String ?? "", response: next.jsonString, scope: "openid"
            ).status == 200)
    }
}
