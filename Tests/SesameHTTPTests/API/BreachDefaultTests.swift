import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameStore
import Testing

/// A new tenant refuses breached passwords at signup, reset and change by default (NIST SP
/// 800-63B §3.1.1.2), while login-time blocking stays the operator's choice; a tenant made before
/// keeps its setting.
@Suite("Breached passwords: refused by default for a new tenant")
struct BreachDefaultTests {
    typealias P = PasswordAccountsTests

    @Test("a new tenant refuses breached passwords at signup, reset and change", arguments: HarnessStore.allCases)
    func onByDefault(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind, breachDetection: true)
        let settings = api.send(
            .get, "/api/v2/attack-protection/breached-password-detection", token: try api.managementToken()
        ).json
        #expect(settings["enabled"] as? Bool == true)
        #expect(settings["shields"] as? [String] == [], "no blocking at login unless the operator asks")
        for breached in ["Qwerty123456", "AUTH0-TEST-a long password", "qwerty123456"] {
            let refused = P.signUp(api, email: "eve@example.com", password: breached)
            #expect(refused.status == 400, "\(breached)")
            #expect(refused.error == "password_leaked" || refused.json["code"] as? String == "password_leaked")
        }
        #expect(try P.users(api).isEmpty, "nothing was written")
        #expect(P.signUp(api, email: "ada@example.com").status == 200)
        // A reset to a breached password is refused too.
        #expect(P.requestReset(api, email: "ada@example.com").status == 200)
        let ticket = try #require(try P.resetTicket(api, email: "ada@example.com"))
        let reset = api.send(
            .post, "/dbconnections/reset_password",
            json: APIHarness.encode(["ticket": ticket, "password": "Qwerty123456"]))
        #expect(reset.status == 400)
        #expect(P.logIn(api, username: "ada@example.com", password: "Qwerty123456").status == 403)
    }

    @Test("a tenant made before keeps detection off until its operator turns it on")
    func existingTenantsKeepTheirSetting() throws {
        let api = try APIHarness()
        #expect(api.tenant.breachedPasswords.enabled == false)
        #expect(P.signUp(api, email: "ada@example.com", password: "Qwerty123456").status == 200)
        let store = InMemoryStore()
        let (_, fresh) = try Bootstrap.initialize(
            store: store, publicURL: "https://login.example.com", random: SystemRandom(), now: Date())
        #expect(fresh.breachedPasswords == BreachedPasswordSettings(enabled: true))
    }
}
