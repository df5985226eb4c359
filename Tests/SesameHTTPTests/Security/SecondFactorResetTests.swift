import Foundation
import SesameService
import SesameStore
import Testing

@testable import SesameHTTP

/// The support path for a user who lost every second factor, on every store: the Management API
/// lists a user's factors and removes one by id (the recovery code goes with the last), and the
/// admin page resets them all. Every device is signed out, the user is emailed, and each factor
/// removed has its `gd_unenroll` entry.
@Suite("Support: an administrator removes or resets a user's second factors")
struct SecondFactorResetTests {
    typealias F = AuthorizeFlowTests
    typealias P = PasswordAccountsTests

    /// Gives the user with `email` a confirmed app, a recovery code and a number not yet confirmed.
    static func enrollFactors(_ api: APIHarness, _ email: String) throws -> String {
        let id = try HostedAdminUsersTests.userID(api, email)
        let now = api.clock.now()
        try api.store.write(.durable) { transaction in
            var user = try #require(try transaction.users.get(tenantID: api.tenant.id, id: id))
            user.mfa = [
                MFAEnrollment(
                    id: "totp|dev_lost1", factor: .otp, active: true, createdAt: now,
                    sealedSecret: Array("sealed-totp-secret".utf8)),
                MFAEnrollment(
                    id: "recovery-code|dev_lost2", factor: .recoveryCode, active: true, createdAt: now + 1,
                    codeHash: Array(repeating: 0xAB, count: 32)),
                MFAEnrollment(
                    id: "sms|dev_lost3", factor: .sms, active: false, createdAt: now + 2, phoneNumber: "+15550101"),
            ]
            try transaction.users.update(user)
        }
        return id
    }

    static func factors(_ api: APIHarness, _ id: String) throws -> [String] {
        try #require(try api.store.read { try $0.users.get(tenantID: api.tenant.id, id: id) }).mfa.map(\.id)
    }

    static func unenrolled(_ api: APIHarness, _ id: String) throws -> [String] {
        api.application.flush()
        return api.send(.get, "/api/v2/users/\(PathSegment.encode(id))/logs", token: try api.managementToken()).list
            .filter { $0["type"] as? String == "gd_unenroll" }.compactMap { $0["details"] as? [String: Any] }
            .compactMap { $0["target"] as? String }.sorted()
    }

    @Test(
        "the Management API lists the factors, and removing them one by one takes the recovery code with the last",
        arguments: HarnessStore.allCases)
    func managementAPI(_ kind: HarnessStore) throws {
        let (api, _, _) = try F.world(kind)
        let refresh = try #require(P.logIn(api, username: "ada@example.com").json["refresh_token"] as? String)
        let id = try Self.enrollFactors(api, "ada@example.com")
        let token = try api.managementToken()
        let path = "/api/v2/users/\(PathSegment.encode(id))/authentication-methods"

        let listed = api.send(.get, path, token: token).list
        #expect(listed.map { $0["type"] as? String } == ["password", "totp", "recovery-code", "phone"])
        #expect(listed.map { $0["confirmed"] as? Bool } == [nil, true, true, false])
        let phone = try #require(listed.last)
        #expect(phone["phone_number"] as? String == "+15550101")
        #expect(phone["preferred_authentication_method"] as? String == "sms")
        #expect(listed.allSatisfy { $0["sealedSecret"] == nil && $0["codeHash"] == nil })

        // The app goes; the unconfirmed number is still a factor, so the recovery code stays.
        #expect(api.send(.delete, path + "/" + PathSegment.encode("totp|dev_lost1"), token: token).status == 204)
        #expect(try Self.factors(api, id) == ["recovery-code|dev_lost2", "sms|dev_lost3"])
        #expect(api.refresh(refresh).status == 400, "every device is signed out")
        let notice = try #require(try api.outboxText(to: "ada@example.com", template: "credential_removed"))
        #expect(notice.contains("A second factor was removed"), "\(notice)")
        // The last factor takes the recovery code with it.
        #expect(api.send(.delete, path + "/" + PathSegment.encode("sms|dev_lost3"), token: token).status == 204)
        #expect(try Self.factors(api, id).isEmpty)
        #expect(try Self.unenrolled(api, id) == ["recovery-code|dev_lost2", "sms|dev_lost3", "totp|dev_lost1"])
        // Gone is gone, and a token without the scope is refused.
        #expect(api.send(.delete, path + "/" + PathSegment.encode("sms|dev_lost3"), token: token).status == 404)
        let narrow = try api.managementToken(scope: "read:users")
        #expect(api.send(.delete, path + "/" + PathSegment.encode("totp|x"), token: narrow).status == 403)
    }

    @Test(
        "the admin page resets every factor of a user: signed out, emailed, logged; refused without CSRF or as a non-admin",
        arguments: HarnessStore.allCases)
    func adminPage(_ kind: HarnessStore) throws {
        let (api, _, client) = try F.world(kind)
        let admin = try HostedAdminTests.admin(api)
        #expect(P.signUp(api, email: "lost@example.com").status == 200)
        let refresh = try #require(P.logIn(api, username: "lost@example.com").json["refresh_token"] as? String)
        let id = try Self.enrollFactors(api, "lost@example.com")
        let page = "/admin/users/" + PathSegment.encode(id)
        let action = page + "/factors/reset"

        admin.send(.get, page)
        #expect(admin.html.contains("<details id=\"reset-factors\">"), "\(admin.html)")
        #expect(admin.html.contains("action=\"\(HTMLText.escape(action))\""))

        // A form from elsewhere (no CSRF token) and a signed-in user who is not an admin change nothing.
        admin.send(.post, action, form: [("csrf", "forged")])
        #expect(admin.last.status == 403)
        let eve = HostedAdminTests.nonAdmin(api, client)
        eve.send(.get, "/account")
        eve.submit(action, [])
        #expect(eve.last.status == 403, "\(eve.html)")
        #expect(try Self.factors(api, id).count == 3)

        admin.send(.get, page)
        admin.submit(action, [])
        #expect(admin.last.status == 303)
        #expect(admin.location == page + "?done=factors-reset")
        admin.follow()
        #expect(admin.html.contains(Catalog.text(.adminFactorsReset, .en)), "\(admin.html)")
        #expect(admin.html.contains(Catalog.text(.noFactors, .en)))
        #expect(!admin.html.contains("id=\"reset-factors\""), "nothing left to reset")
        #expect(try Self.factors(api, id).isEmpty)
        #expect(api.refresh(refresh).status == 400)
        let notice = try #require(try api.outboxText(to: "lost@example.com", template: "credential_removed"))
        #expect(notice.contains("Two-step verification was reset"), "\(notice)")
        #expect(try Self.unenrolled(api, id) == ["recovery-code|dev_lost2", "sms|dev_lost3", "totp|dev_lost1"])

        // An unknown user is the pages' 404 (the form's token from the overview's own form).
        admin.send(.get, "/admin")
        admin.submit("/admin/users/sesame%7Cnobody/factors/reset", [])
        #expect(admin.last.status == 404)
    }

    @Test(
        "an administrator's removal of a passkey or a password is emailed to the user", arguments: HarnessStore.allCases
    )
    func passkeyAndPasswordNotices(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let session = try api.signUp(api.authenticator(), email: "keys@example.com")
        let token = try api.managementToken()
        let path = "/api/v2/users/\(PathSegment.encode(session.userID))/authentication-methods"
        let passkey = try #require(api.send(.get, path, token: token).list.first?["id"] as? String)
        #expect(api.send(.delete, path + "/" + PathSegment.encode(passkey), token: token).status == 204)
        let notice = try #require(try api.outboxText(to: "keys@example.com", template: "credential_removed"))
        #expect(notice.contains("A passkey was removed") && notice.contains("devices signed in with it"))

        #expect(P.signUp(api, email: "pw@example.com").status == 200)
        let id = try HostedAdminUsersTests.userID(api, "pw@example.com")
        let pwPath = "/api/v2/users/\(PathSegment.encode(id))/authentication-methods"
        let password = try #require(api.send(.get, pwPath, token: token).list.first?["id"] as? String)
        #expect(api.send(.delete, pwPath + "/" + PathSegment.encode(password), token: token).status == 204)
        let second = try #require(try api.outboxText(to: "pw@example.com", template: "credential_removed"))
        #expect(second.contains("The password was removed"))
    }
}
